package dev.ferry;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An ordered set of processes (MPI's group): a communicator's members, or a set made from others
 * to create a communicator from. Ranks are positions in the group. Immutable.
 *
 * <pre>{@code
 * Group evens = world.group().incl(0, 2, 4, 6);
 * int[] inWorld = evens.translateRanks(new int[] {1, 3}, world.group());   // {2, 6}
 * Comm even = world.create(evens);                                        // null on odd ranks
 * }</pre>
 */
public final class Group {
    /** The members' ranks in the job (world ranks), in group order. */
    final int[] members;
    /** The calling process's world rank. */
    private final int me;

    Group(int[] members, int me) {
        this.members = members;
        this.me = me;
    }

    public int size() {
        return members.length;
    }

    /** The calling process's rank in this group, or {@link Ferry#UNDEFINED} when it is not a member. */
    public int rank() {
        return indexOf(me);
    }

    private int indexOf(int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return Ferry.UNDEFINED;
    }

    /** The members of ranks {@code ranks}, in that order. */
    public Group incl(int... ranks) {
        checkDistinct(ranks, "ranks");
        int[] m = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            m[i] = members[ranks[i]];
        }
        return new Group(m, me);
    }

    /** The members but those of ranks {@code ranks}, in group order. */
    public Group excl(int... ranks) {
        checkDistinct(ranks, "ranks");
        boolean[] out = new boolean[members.length];
        for (int r : ranks) {
            out[r] = true;
        }
        int[] m = new int[members.length - ranks.length];
        int k = 0;
        for (int i = 0; i < members.length; i++) {
            if (!out[i]) {
                m[k++] = members[i];
            }
        }
        return new Group(m, me);
    }

    /** This group's members, then those of {@code other} not in it. */
    public Group union(Group other) {
        Set<Integer> s = new LinkedHashSet<>();
        for (int w : members) {
            s.add(w);
        }
        for (int w : other.members) {
            s.add(w);
        }
        return new Group(s.stream().mapToInt(Integer::intValue).toArray(), me);
    }

    /** This group's members that are in {@code other} too, in this group's order. */
    public Group intersection(Group other) {
        return new Group(Arrays.stream(members).filter(w -> other.indexOf(w) != Ferry.UNDEFINED).toArray(), me);
    }

    /** This group's members that are not in {@code other}, in this group's order. */
    public Group difference(Group other) {
        return new Group(Arrays.stream(members).filter(w -> other.indexOf(w) == Ferry.UNDEFINED).toArray(), me);
    }

    /** The ranks in {@code other} of this group's ranks {@code ranks} ({@link Ferry#UNDEFINED} for those not in it). */
    public int[] translateRanks(int[] ranks, Group other) {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == Ferry.PROC_NULL) {
                out[i] = Ferry.PROC_NULL;
                continue;
            }
            checkRank(ranks[i], "ranks[" + i + "]");
            out[i] = other.indexOf(members[ranks[i]]);
        }
        return out;
    }

    /** IDENT: the same members in the same order; SIMILAR: in another order; else UNEQUAL. */
    public Comparison compare(Group other) {
        if (Arrays.equals(members, other.members)) {
            return Comparison.IDENT;
        }
        if (members.length == other.members.length && intersection(other).size() == members.length) {
            return Comparison.SIMILAR;
        }
        return Comparison.UNEQUAL;
    }

    private void checkRank(int r, String what) {
        if (r < 0 || r >= members.length) {
            throw FerryException.arg(ErrorClass.RANK, what + ": " + r + " is outside the group's ranks 0.." + (members.length - 1));
        }
    }

    private void checkDistinct(int[] ranks, String what) {
        boolean[] seen = new boolean[members.length];
        for (int i = 0; i < ranks.length; i++) {
            checkRank(ranks[i], what + "[" + i + "]");
            if (seen[ranks[i]]) {
                throw FerryException.arg(ErrorClass.GROUP, what + "[" + i + "]: rank " + ranks[i] + " is named twice");
            }
            seen[ranks[i]] = true;
        }
    }

    @Override
    public String toString() {
        return "group of world ranks " + Arrays.toString(members);
    }
}
