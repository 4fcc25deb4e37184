/** The bootstrap (PMI-1, PMI-2, PMIx) and the launcher's job, proxy and host machinery. Internal to Ferry. */
module dev.ferry.launch {
    requires transitive dev.ferry.spi;
    requires java.management;
    uses dev.ferry.launch.run.NodeService;
    exports dev.ferry.launch;
    exports dev.ferry.launch.hosts;
    exports dev.ferry.launch.pmi;
    exports dev.ferry.launch.run;
}
