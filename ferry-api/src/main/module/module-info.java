/**
 * Ferry's application API: the package {@code dev.ferry}. An application's module reads it with
 * {@code requires dev.ferry;} and needs nothing else of Ferry at compile time; the engine and the
 * drivers come with it at run time.
 */
module dev.ferry {
    requires dev.ferry.core;
    requires dev.ferry.portals;
    requires org.agrona;
    requires jdk.jfr;
    requires java.management;
    exports dev.ferry;
    exports dev.ferry.internal to dev.ferry.mpi;
}
