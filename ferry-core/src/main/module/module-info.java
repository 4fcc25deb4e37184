/** The engine: gates, rails, protocols, matching and progress over the drivers. Internal to Ferry. */
module dev.ferry.core {
    requires transitive dev.ferry.spi;
    requires transitive dev.ferry.launch;
    requires org.agrona;
    requires jdk.jfr;
    uses dev.ferry.spi.Driver;
    uses dev.ferry.core.agent.AgentOffload;
    provides dev.ferry.launch.run.NodeService with dev.ferry.core.agent.AgentNodeService;
    exports dev.ferry.core.agent;
    exports dev.ferry.core.boot;
    exports dev.ferry.core.config;
    exports dev.ferry.core.driver;
    exports dev.ferry.core.engine;
    exports dev.ferry.core.gate;
    exports dev.ferry.core.jfr;
    exports dev.ferry.core.match;
    exports dev.ferry.core.protocol;
    exports dev.ferry.core.rail;
    exports dev.ferry.core.request;
    exports dev.ferry.core.util;
    exports dev.ferry.core.wire;
}
