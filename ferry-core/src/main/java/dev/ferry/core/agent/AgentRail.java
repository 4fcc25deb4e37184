package dev.ferry.core.agent;

/**
 * One rail of the node: its side of the network (a listener and one link per other node) and
 * the ranks' channels attached on it, by their rank in the job. A rank of several rails
 * (FERRY_RAILS=agent:2) has a channel on each; records of one rail never cross to another.
 */
final class AgentRail implements AgentNetwork.Locals {
    final int index;
    final AgentNetwork network;
    final org.agrona.collections.Int2ObjectHashMap<AgentRank> byJobRank = new org.agrona.collections.Int2ObjectHashMap<>();
    /** Pulls between two ranks of this node (a job without shared memory between them). */
    final AgentPulls.Local localPulls = new AgentPulls.Local();
    /** The ranks by rank, for the local pulls (made once: the loop allocates nothing per pass). */
    final java.util.function.IntFunction<AgentRank> rankOf = byJobRank::get;

    /** The agent's ranks, every rail's (a GONE is told to those of this one). */
    private final java.util.List<AgentRank> ranks;

    /** The offloads of the layers above ({@link AgentOffload}). */
    private final AgentOffloads offloads;

    AgentRail(int index, Agent.Config config, String jobKey, java.util.List<AgentRank> ranks, AgentOffloads offloads, java.nio.channels.Selector selector) {
        this.index = index;
        this.ranks = ranks;
        this.offloads = offloads;
        // each rail on a NIC of its own where the node has several, unless an address is set
        java.net.InetAddress bind = config.linkAddress() != null ? config.linkAddress() : AgentNetwork.railAddress(index);
        this.network = new AgentNetwork(jobKey, bind, config.linkIdleClose().toNanos(), config.maxLinks(), this, selector);
    }

    @Override
    public ByteRing inRing(int rank) {
        AgentRank r = byJobRank.get(rank);
        return r == null ? null : r.in;
    }

    @Override
    public AgentPulls.Party party(int rank) {
        return byJobRank.get(rank);
    }

    @Override
    public boolean offloaded(int to, int from, java.lang.foreign.MemorySegment packet, java.nio.ByteBuffer record) {
        AgentRank r = byJobRank.get(to);
        return r != null && offloads.take(r, from, packet, record);
    }

    @Override
    public boolean anyAttached() {
        return !byJobRank.isEmpty();
    }

    @Override
    public void gone(int to, int rank) {
        for (AgentRank r : ranks) {
            if (r.rail == this && r.jobRank != rank && (to < 0 || r.jobRank == to)) {
                r.goneToTell.add(rank);
                if (r.pulls.failPostedFrom(rank) > 0) {
                    r.answered();
                }
            }
        }
    }
}
