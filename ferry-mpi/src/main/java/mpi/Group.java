package mpi;

/**
 * An ordered set of processes: taken from a communicator, combined, and used to make
 * communicators. Open MPI names ({@link #getSize()}, {@link #incl(int[])}) and mpiJava names
 * ({@link #Size()}, {@link #Incl(int[])}).
 *
 * <pre>{@code
 * Group world = MPI.COMM_WORLD.getGroup();
 * Group evens = world.incl(new int[] {0, 2, 4});
 * Intracomm c = MPI.COMM_WORLD.create(evens);   // null at the other ranks
 * }</pre>
 */
public class Group implements Freeable {
    public static final int EMPTY = -1;
    /** Ferry's group; null for GROUP_NULL and for GROUP_EMPTY before MPI.Init. */
    dev.ferry.Group group;
    private final boolean isNull;
    /** mpiJava's code of the group (unused by Ferry). */
    public int code;

    Group(dev.ferry.Group group) {
        this.group = group;
        this.isNull = false;
    }

    private Group(boolean isNull) {
        this.isNull = isNull;
    }

    static Group nullGroup() {
        return new Group(true);
    }

    static Group empty() {
        return new Group(false);
    }

    private dev.ferry.Group g(String what) {
        if (group == null) {
            if (isNull) {
                throw Errors.raise(MPI.COMM_WORLD.errhandler(), MPI.ERR_GROUP, what + " is MPI.GROUP_NULL");
            }
            group = MPI.COMM_WORLD.ferry("group").group().incl(); // the empty group
        }
        return group;
    }

    private static MPIException wrap(RuntimeException e) {
        return Errors.raise(MPI.COMM_WORLD.errhandler(), e);
    }

    public int getSize() {
        return isNull ? 0 : g("group").size();
    }

    /** The caller's rank here, or {@link MPI#UNDEFINED}. */
    public int getRank() {
        return isNull ? MPI.UNDEFINED : g("group").rank();
    }

    @Override
    public void free() {
    }

    public boolean isNull() {
        return isNull;
    }

    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) {
        try {
            return group1.g("group1").translateRanks(ranks1, group2.g("group2"));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** {@link MPI#IDENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}. */
    public static int compare(Group group1, Group group2) {
        try {
            return MPI.comparison(group1.g("group1").compare(group2.g("group2")));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Group union(Group group1, Group group2) {
        try {
            return new Group(group1.g("group1").union(group2.g("group2")));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Group intersection(Group group1, Group group2) {
        try {
            return new Group(group1.g("group1").intersection(group2.g("group2")));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public static Group difference(Group group1, Group group2) {
        try {
            return new Group(group1.g("group1").difference(group2.g("group2")));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public Group incl(int[] ranks) {
        try {
            return new Group(g("group").incl(ranks));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    public Group excl(int[] ranks) {
        try {
            return new Group(g("group").excl(ranks));
        } catch (RuntimeException e) {
            throw wrap(e);
        }
    }

    /** The ranks of triplets {first, last, stride}. */
    public Group rangeIncl(int[][] ranges) {
        return incl(expand(ranges, getSize()));
    }

    public Group rangeExcl(int[][] ranges) {
        return excl(expand(ranges, getSize()));
    }

    private static int[] expand(int[][] ranges, int size) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int i = 0; i < ranges.length; i++) {
            int[] r = ranges[i];
            if (r.length != 3 || r[2] == 0) {
                throw wrap(new MPIException(MPI.ERR_ARG, "ranges[" + i + "]: not a triplet {first, last, stride} with a non-zero stride"));
            }
            for (int k = r[0]; r[2] > 0 ? k <= r[1] : k >= r[1]; k += r[2]) {
                out.add(k);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    // --- mpiJava 1.2 names ---------------------------------------------------------------------

    public int Size() {
        return getSize();
    }

    public int Rank() {
        return getRank();
    }

    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        return translateRanks(group1, ranks1, group2);
    }

    public static int Compare(Group group1, Group group2) {
        return compare(group1, group2);
    }

    public static Group Union(Group group1, Group group2) {
        return union(group1, group2);
    }

    public static Group Intersection(Group group1, Group group2) {
        return intersection(group1, group2);
    }

    public static Group Difference(Group group1, Group group2) {
        return difference(group1, group2);
    }

    public Group Incl(int[] ranks) {
        return incl(ranks);
    }

    public Group Excl(int[] ranks) {
        return excl(ranks);
    }

    public Group Range_incl(int[][] ranges) {
        return rangeIncl(ranges);
    }

    public Group Range_excl(int[][] ranges) {
        return rangeExcl(ranges);
    }

    @Override
    public String toString() {
        return isNull ? "GROUP_NULL" : group == null ? "GROUP_EMPTY" : group.toString();
    }
}
