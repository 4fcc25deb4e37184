/** The Portals 4 library over the engine: matching, memory descriptors, events, counters, put, get, atomics. */
module dev.ferry.portals {
    requires transitive dev.ferry.core;
    requires org.agrona;
    exports dev.ferry.portals;
    provides dev.ferry.core.agent.AgentOffload with dev.ferry.portals.AgentEntryOffload;
}
