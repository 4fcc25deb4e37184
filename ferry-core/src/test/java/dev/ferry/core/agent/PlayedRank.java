package dev.ferry.core.agent;

import java.lang.foreign.Arena;

/**
 * A rank as the agent's pulls and matching see it, played by the test's own process: its slots
 * (pull slots with their match fields) in memory of its own, its memory reached through
 * CrossMemory on this pid (process_vm_readv / writev work on one's own pid too).
 */
final class PlayedRank implements AgentPulls.Party {
    final int rank;
    final PullSlots exposures, pulls;
    final CrossMemory memory = new CrossMemory(ProcessHandle.current().pid());
    int answered;
    boolean left;

    PlayedRank(int rank, Arena a) {
        this.rank = rank;
        long bytes = ChannelLayout.PULL_SLOTS * ChannelLayout.PULL_SLOT_BYTES;
        this.exposures = new PullSlots(a.allocate(bytes, 64));
        this.pulls = new PullSlots(a.allocate(bytes, 64), a.allocate(ChannelLayout.PULL_SLOTS * ChannelLayout.MATCH_BYTES, 64));
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public PullSlots exposures() {
        return exposures;
    }

    @Override
    public PullSlots pulls() {
        return pulls;
    }

    @Override
    public CrossMemory memory() {
        return memory;
    }

    @Override
    public boolean left() {
        return left;
    }

    @Override
    public void answered() {
        answered++;
    }
}
