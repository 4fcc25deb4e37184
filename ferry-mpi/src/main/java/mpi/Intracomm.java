package mpi;

/**
 * A communicator of one group: point-to-point, every collective, and the making of new
 * communicators and topologies. {@link MPI#COMM_WORLD} is one.
 *
 * <pre>{@code
 * Intracomm row = MPI.COMM_WORLD.split(rank / cols, rank);           // Open MPI bindings
 * row.allReduce(partial, sum, n, MPI.DOUBLE, MPI.SUM);
 * Intracomm col = MPI.COMM_WORLD.Split(rank % cols, rank);           // mpiJava 1.2
 * col.Allreduce(partial, 0, sum, 0, n, MPI.DOUBLE, MPI.SUM);
 * }</pre>
 */
public class Intracomm extends Comm {
    Intracomm(dev.ferry.Comm comm) {
        super(comm);
    }

    @Override
    Intracomm wrap(dev.ferry.Comm c) {
        if (c == null) {
            return null;
        }
        Intracomm w = new Intracomm(c);
        w.errhandler = errhandler;
        return w;
    }

    @Override
    public Intracomm clone() {
        return dup();
    }

    @Override
    public Intracomm dup() {
        return (Intracomm) super.dup();
    }

    @Override
    public Intracomm iDup() {
        return (Intracomm) super.iDup();
    }

    @Override
    public Intracomm dupWithInfo(Info info) {
        return (Intracomm) super.dupWithInfo(info);
    }

    /** Ranks of one {@code color} form a communicator, ordered by {@code key} (collective); null for color {@link MPI#UNDEFINED}. */
    public final Intracomm split(int colour, int key) {
        try {
            return wrap(ferry("split").split(colour, key));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** With {@link Comm#TYPE_SHARED}: the ranks of this node, ordered by {@code key}. */
    public final Intracomm splitType(int splitType, int key, Info info) {
        try {
            if (splitType == MPI.UNDEFINED) {
                return split(MPI.UNDEFINED, key);
            }
            if (splitType != TYPE_SHARED) {
                throw new MPIException(MPI.ERR_ARG, "splitType: " + splitType + " is neither Comm.TYPE_SHARED nor MPI.UNDEFINED");
            }
            return wrap(ferry("splitType").splitShared(key));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** The members of {@code group} (collective over this communicator); null at the others. */
    public final Intracomm create(Group group) {
        try {
            return wrap(ferry("create").create(group.group == null ? ferry("create").group().incl() : group.group));
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * {@link #create}: Ferry makes communicators collectively over the parent, so every member of
     * this communicator calls it, not only the group's (a stricter rule than MPI_Comm_create_group).
     */
    public final Intracomm createGroup(Group group, int tag) {
        return create(group);
    }

    /** A Cartesian grid of {@code dims} (row-major ranks; {@code reorder} ignored): null at the ranks beyond the grid. */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        return makeCart(dims, periods);
    }

    final Cartcomm makeCart(int[] dims, boolean[] periods) {
        try {
            if (dims.length != periods.length) {
                throw new MPIException(MPI.ERR_DIMS, "dims has " + dims.length + " entries, periods " + periods.length);
            }
            long n = 1;
            for (int i = 0; i < dims.length; i++) {
                if (dims[i] <= 0) {
                    throw new MPIException(MPI.ERR_DIMS, "dims[" + i + "]: " + dims[i] + " is not positive");
                }
                n *= dims[i];
            }
            int size = getSize();
            if (n > size) {
                throw new MPIException(MPI.ERR_DIMS, "dims: a grid of " + n + " ranks on a communicator of " + size);
            }
            dev.ferry.Comm c = ferry("createCart").split(getRank() < n ? 0 : MPI.UNDEFINED, getRank());
            if (c == null) {
                return null;
            }
            Cartcomm cart = new Cartcomm(c);
            cart.errhandler = errhandler;
            cart.topology = Topology.cart(c, dims, periods);
            return cart;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /** A graph of {@code index.length} nodes (MPI's index and edges; {@code reorder} ignored): null beyond them. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) {
        return makeGraph(index, edges);
    }

    final Graphcomm makeGraph(int[] index, int[] edges) {
        try {
            int size = getSize();
            if (index.length > size) {
                throw new MPIException(MPI.ERR_ARG, "index: a graph of " + index.length + " nodes on a communicator of " + size);
            }
            for (int i = 0; i < index.length; i++) {
                if (index[i] < (i == 0 ? 0 : index[i - 1]) || index[i] > edges.length) {
                    throw new MPIException(MPI.ERR_ARG, "index[" + i + "]: " + index[i] + " does not grow within the " + edges.length + " edges");
                }
            }
            for (int i = 0; i < edges.length; i++) {
                if (edges[i] < 0 || edges[i] >= index.length) {
                    throw new MPIException(MPI.ERR_ARG, "edges[" + i + "]: " + edges[i] + " is not a node of the graph of " + index.length);
                }
            }
            dev.ferry.Comm c = ferry("createGraph").split(getRank() < index.length ? 0 : MPI.UNDEFINED, getRank());
            if (c == null) {
                return null;
            }
            Graphcomm g = new Graphcomm(c);
            g.errhandler = errhandler;
            g.topology = Topology.graph(c, index, edges);
            return g;
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    /**
     * A distributed graph: this rank names edges from each of {@code sources} to its
     * {@code degrees[i]} destinations (collective; the ranks learn their own neighbours by an
     * exchange).
     */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, int[] weights, Info info, boolean reorder) {
        try {
            return DistGraphs.create(this, sources, degrees, destinations, weights);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info, boolean reorder) {
        return createDistGraph(sources, degrees, destinations, null, info, reorder);
    }

    /** A distributed graph where each rank names its own in and out neighbours (collective). */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights, Info info, boolean reorder) {
        try {
            return DistGraphs.adjacent(this, sources, sourceWeights, destinations, destWeights);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder) {
        return createDistGraphAdjacent(sources, null, destinations, null, info, reorder);
    }

    // --- scans (Open MPI bindings) ---------------------------------------------------------------

    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        try {
            coll("scan").scan(sendbuf, 0, recvbuf, 0, count, type, op, false, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void scan(Object recvbuf, int count, Datatype type, Op op) {
        try {
            coll("scan").scan(MPI.IN_PLACE, 0, recvbuf, 0, count, type, op, false, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) {
        try {
            return coll("iScan").scan(sendbuf, 0, recvbuf, 0, count, type, op, false, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iScan(java.nio.Buffer buf, int count, Datatype type, Op op) {
        try {
            return coll("iScan").scan(MPI.IN_PLACE, 0, buf, 0, count, type, op, false, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        try {
            coll("exScan").scan(sendbuf, 0, recvbuf, 0, count, type, op, true, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final void exScan(Object buf, int count, Datatype type, Op op) {
        try {
            coll("exScan").scan(MPI.IN_PLACE, 0, buf, 0, count, type, op, true, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iExScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) {
        try {
            return coll("iExScan").scan(sendbuf, 0, recvbuf, 0, count, type, op, true, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public final Request iExScan(java.nio.Buffer buf, int count, Datatype type, Op op) {
        try {
            return coll("iExScan").scan(MPI.IN_PLACE, 0, buf, 0, count, type, op, true, true);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    // --- dynamic processes: not in Ferry ---------------------------------------------------------

    private static MPIException noDynamic(String what) {
        return Errors.raise(MPI.COMM_WORLD.errhandler(), MPI.ERR_UNSUPPORTED_OPERATION,
                what + ": Ferry's jobs have a fixed set of processes (no ports, name service or spawn)");
    }

    public static String openPort() {
        throw noDynamic("openPort");
    }

    public static String openPort(Info info) {
        throw noDynamic("openPort");
    }

    public static void closePort(String name) {
        throw noDynamic("closePort");
    }

    public final Intercomm accept(String port, int root) {
        throw noDynamic("accept");
    }

    public final Intercomm accept(String port, Info info, int root) {
        throw noDynamic("accept");
    }

    public final Intercomm connect(String port, int root) {
        throw noDynamic("connect");
    }

    public final Intercomm connect(String port, Info info, int root) {
        throw noDynamic("connect");
    }

    public static void publishName(String service, String port) {
        throw noDynamic("publishName");
    }

    public static void publishName(String service, Info info, String port) {
        throw noDynamic("publishName");
    }

    public static void unpublishName(String service, String port) {
        throw noDynamic("unpublishName");
    }

    public static void unpublishName(String service, Info info, String port) {
        throw noDynamic("unpublishName");
    }

    public static String lookupName(String service) {
        throw noDynamic("lookupName");
    }

    public static String lookupName(String service, Info info) {
        throw noDynamic("lookupName");
    }

    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root, int[] errcodes) {
        throw noDynamic("spawn");
    }

    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info, int root, int[] errcodes) {
        throw noDynamic("spawnMultiple");
    }

    // --- mpiJava 1.2 -----------------------------------------------------------------------------

    public Intracomm Split(int colour, int key) {
        return split(colour, key);
    }

    public Intracomm Create(Group group) {
        return create(group);
    }

    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) {
        return makeCart(dims, periods);
    }

    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) {
        return makeGraph(index, edges);
    }

    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts, Datatype datatype, Op op) {
        try {
            coll("reduceScatter").reduceScatter(sendbuf, sendoffset, recvbuf, recvoffset, recvcounts, datatype, op, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op) {
        try {
            coll("scan").scan(sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, false, false);
        } catch (RuntimeException e) {
            throw fail(e);
        }
    }

    public static int Compare(Comm comm1, Comm comm2) {
        return Comm.compare(comm1, comm2);
    }
}
