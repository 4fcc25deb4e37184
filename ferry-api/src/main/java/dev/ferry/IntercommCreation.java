package dev.ferry;

import java.util.Arrays;

/**
 * Makes intercommunicators, and intracommunicators from them. Each group first agrees within
 * itself on the context ids free at all its members (as every communicator creation does); its
 * leader then swaps that mask and the group's members with the other group's leader, and
 * broadcasts what came back to its group, so that every member of both groups computes the same
 * ids from the same two masks. An intercommunicator takes two ids: its own, and one for the
 * local communicator its collectives use within each group (both groups use the same second id,
 * each among its own members only, which never talk on it to the other).
 */
final class IntercommCreation {
    /** A group's word to the other: its size, its "high" flag (merge), the free mask, then the members' job ranks. */
    private static final int SIZE = 0, HIGH = 1, MASK = 2;

    private IntercommCreation() {
    }

    /** MPI_Intercomm_create, on {@code local}: see {@link Comm#createIntercomm}. */
    static Comm create(Comm local, int localLeader, Comm peerComm, int remoteLeader, int tag) {
        if (localLeader < 0 || localLeader >= local.size()) {
            throw FerryException.arg(ErrorClass.RANK, "localLeader: " + localLeader + " is outside " + local + "'s ranks 0.." + (local.size() - 1));
        }
        Ferry f = local.ferry();
        synchronized (f.creation) {
            long[] mask = IntracommCreation.commonFreeMask(local);
            long[] theirs = null;
            FerryException refused = null;
            if (local.rank() == localLeader) {
                try {
                    checkPeer(local, peerComm, remoteLeader, tag);
                    theirs = swap(word(local.members(), mask, false), peerComm, remoteLeader, tag);
                } catch (FerryException e) {
                    refused = e;
                }
            }
            theirs = fromLeader(local, localLeader, theirs, refused);
            int[] remote = membersOf(theirs);
            checkDisjoint(local.members(), remote);
            int[] ids = twoIds(mask, theirs, local);
            f.contexts.take(ids[0]);
            f.contexts.take(ids[1]);
            Comm lc = new Comm(f, ids[1], local.members().clone());
            return new Comm(f, ids[0], local.members().clone(), remote, lc);
        }
    }

    /** MPI_Comm_dup of an intercommunicator: the same groups, new contexts. */
    static Comm dup(Comm inter, Comm local) {
        Ferry f = inter.ferry();
        synchronized (f.creation) {
            int tag = inter.nextCollectiveTag();
            long[] mask = IntracommCreation.commonFreeMask(local);
            long[] theirs = leadersSwap(inter, local, word(local.members(), mask, false), tag);
            int[] ids = twoIds(mask, theirs, inter);
            f.contexts.take(ids[0]);
            f.contexts.take(ids[1]);
            Comm lc = new Comm(f, ids[1], local.members().clone());
            return new Comm(f, ids[0], local.members().clone(), membersOf(theirs), lc);
        }
    }

    /** MPI_Intercomm_merge: see {@link Comm#merge}. */
    static Comm merge(Comm inter, Comm local, boolean high) {
        Ferry f = inter.ferry();
        synchronized (f.creation) {
            int tag = inter.nextCollectiveTag();
            long[] mask = IntracommCreation.commonFreeMask(local);
            long[] theirs = leadersSwap(inter, local, word(local.members(), mask, high), tag);
            long[] and = and(mask, theirs);
            int id = ContextIds.lowestCommon(and);
            if (id < 0) {
                throw noId(inter);
            }
            int[] mine = local.members(), remote = membersOf(theirs);
            boolean theirHigh = theirs[HIGH] != 0;
            boolean mineFirst = high != theirHigh ? !high : mine[0] < remote[0];
            int[] all = new int[mine.length + remote.length];
            System.arraycopy(mineFirst ? mine : remote, 0, all, 0, mineFirst ? mine.length : remote.length);
            System.arraycopy(mineFirst ? remote : mine, 0, all, mineFirst ? mine.length : remote.length, mineFirst ? remote.length : mine.length);
            f.contexts.take(id);
            return new Comm(f, id, all);
        }
    }

    private static void checkPeer(Comm local, Comm peerComm, int remoteLeader, int tag) {
        if (peerComm == null) {
            throw FerryException.arg(ErrorClass.COMM, "peerComm is null at the local leader");
        }
        peerComm.checkLive();
        if (peerComm.isInter()) {
            throw FerryException.arg(ErrorClass.COMM, "peerComm: " + peerComm + " is an intercommunicator");
        }
        if (remoteLeader < 0 || remoteLeader >= peerComm.size()) {
            throw FerryException.arg(ErrorClass.RANK, "remoteLeader: " + remoteLeader + " is outside " + peerComm + "'s ranks 0.." + (peerComm.size() - 1));
        }
        if (tag < 0) {
            throw FerryException.arg(ErrorClass.TAG, "tag: " + tag + " is negative");
        }
        int leaderJobRank = peerComm.group().members[remoteLeader];
        for (int m : local.members()) {
            if (m == leaderJobRank) {
                throw FerryException.arg(ErrorClass.COMM, "remoteLeader: rank " + remoteLeader + " of " + peerComm + " (job rank " + m
                        + ") is in the local group (an intercommunicator's groups are disjoint)");
            }
        }
    }

    /** The leaders' swap over {@code peerComm}: the lengths, then the words. */
    private static long[] swap(long[] mine, Comm peerComm, int remoteLeader, int tag) {
        long[] theirLength = new long[1];
        peerComm.sendrecv(new long[] {mine.length}, 0, 1, Datatype.LONG, remoteLeader, tag,
                theirLength, 0, 1, Datatype.LONG, remoteLeader, tag);
        long[] theirs = new long[checkedLength(theirLength[0])];
        peerComm.sendrecv(mine, 0, mine.length, Datatype.LONG, remoteLeader, tag, theirs, 0, theirs.length, Datatype.LONG, remoteLeader, tag);
        return theirs;
    }

    /** The leaders' swap over an intercommunicator (rank 0 of each group, on its internal context), shared with each group. */
    private static long[] leadersSwap(Comm inter, Comm local, long[] mine, int tag) {
        long[] theirs = null;
        if (local.rank() == 0) {
            long[] theirLength = new long[1];
            Request r = inter.internalRecv(theirLength, 0, 1, Datatype.LONG, 0, tag);
            inter.internalSend(new long[] {mine.length}, 0, 1, Datatype.LONG, 0, tag).await();
            r.await();
            theirs = new long[checkedLength(theirLength[0])];
            r = inter.internalRecv(theirs, 0, theirs.length, Datatype.LONG, 0, tag);
            inter.internalSend(mine, 0, mine.length, Datatype.LONG, 0, tag).await();
            r.await();
        }
        return fromLeader(local, 0, theirs, null);
    }

    /**
     * The other group's word, from {@code leader} to every member of {@code local}; or, when the
     * leader {@code refused} its arguments, that error at every member (so none waits for a
     * creation that will not happen).
     */
    private static long[] fromLeader(Comm local, int leader, long[] theirs, FerryException refused) {
        long[] head = new long[2];
        byte[] why = null;
        if (local.rank() == leader) {
            if (refused != null) {
                why = refused.getMessage().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                head[0] = -1 - why.length;
                head[1] = refused.errorClass().ordinal();
            } else {
                head[0] = theirs.length;
            }
        }
        local.bcast(head, 0, 2, Datatype.LONG, leader);
        if (head[0] < 0) {
            if (why == null) {
                why = new byte[(int) (-1 - head[0])];
            }
            local.bcast(why, 0, why.length, Datatype.BYTE, leader);
            if (refused != null) {
                throw refused;
            }
            throw new FerryException(ErrorClass.values()[(int) head[1]], "createIntercomm: the local leader (rank " + leader + ") refused its arguments: "
                    + new String(why, java.nio.charset.StandardCharsets.UTF_8));
        }
        if (theirs == null) {
            theirs = new long[checkedLength(head[0])];
        }
        local.bcast(theirs, 0, theirs.length, Datatype.LONG, leader);
        return theirs;
    }

    private static long[] word(int[] members, long[] mask, boolean high) {
        long[] w = new long[MASK + mask.length + members.length];
        w[SIZE] = members.length;
        w[HIGH] = high ? 1 : 0;
        System.arraycopy(mask, 0, w, MASK, mask.length);
        for (int i = 0; i < members.length; i++) {
            w[MASK + mask.length + i] = members[i];
        }
        return w;
    }

    private static int[] membersOf(long[] word) {
        int n = (int) word[SIZE], from = MASK + ContextIds.MAX / 64;
        int[] m = new int[n];
        for (int i = 0; i < n; i++) {
            m[i] = Math.toIntExact(word[from + i]);
        }
        return m;
    }

    private static long[] and(long[] mask, long[] theirs) {
        long[] and = mask.clone();
        for (int w = 0; w < and.length; w++) {
            and[w] &= theirs[MASK + w];
        }
        return and;
    }

    /** The two lowest ids free at every member of both groups. */
    private static int[] twoIds(long[] mask, long[] theirs, Comm where) {
        long[] and = and(mask, theirs);
        int first = ContextIds.lowestCommon(and);
        if (first >= 0) {
            and[first >>> 6] &= ~(1L << first);
        }
        int second = ContextIds.lowestCommon(and);
        if (first < 0 || second < 0) {
            throw noId(where);
        }
        return new int[] {first, second};
    }

    private static FerryException noId(Comm where) {
        return new FerryException(ErrorClass.NO_SPACE, "no communicator context is free at every member of both groups of " + where
                + " (" + ContextIds.MAX + " per instance)");
    }

    private static void checkDisjoint(int[] mine, int[] remote) {
        int[] sorted = mine.clone();
        Arrays.sort(sorted);
        for (int r : remote) {
            if (Arrays.binarySearch(sorted, r) >= 0) {
                throw new FerryException(ErrorClass.COMM, "createIntercomm: job rank " + r + " is in both groups (an intercommunicator's groups are disjoint)");
            }
        }
    }

    private static int checkedLength(long n) {
        if (n < MASK + ContextIds.MAX / 64 || n > Integer.MAX_VALUE - 16) {
            throw new FerryException(ErrorClass.INTERN, "createIntercomm: the other leader's word has " + n + " entries");
        }
        return (int) n;
    }
}
