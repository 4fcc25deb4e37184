/**
 * The package {@code mpi}: the Open MPI Java bindings' API and mpiJava 1.2's (MPJ Express), over
 * Ferry's application API. A module of an existing program reads it with {@code requires dev.ferry.mpi;}.
 */
module dev.ferry.mpi {
    requires transitive dev.ferry;
    exports mpi;
}
