package dev.ferry.core.rail;

/**
 * What the engine did, per context where it matters: counters written by the progressing thread
 * only (plain fields, read racily by observers), so counting costs no fence.
 */
public final class EngineStats {
    private final String[] names;
    private final long[] immediateMessages;
    private final long[] immediateBytes;
    private final long[] rendezvousBytes;
    long packets;
    long aggregatedPackets;
    long aggregatedMessages;
    public long rendezvous;
    long exposedRendezvous;
    long armed;
    long agentMatched;
    long dataPackets;
    long chunksAnnounced;
    long pullBatches;
    long batchedPulls;
    long heldBytes;
    long envelopes;
    long heldMax;

    public EngineStats(String[] contextNames) {
        names = contextNames.clone();
        immediateMessages = new long[names.length];
        immediateBytes = new long[names.length];
        rendezvousBytes = new long[names.length];
    }

    public void immediate(EngineContext ec, long bytes) {
        immediateMessages[ec.id()]++;
        immediateBytes[ec.id()] += bytes;
    }

    public void rendezvous() {
        rendezvous++;
    }

    /** A message within the eager limit went as a rendezvous envelope: its peer kept every credit unreceived. */
    public void envelope() {
        envelopes++;
    }

    /** Messages within the eager limit sent as rendezvous envelopes (their peer kept every credit). */
    public long envelopes() {
        return envelopes;
    }

    public void rendezvousBytes(EngineContext ec, long bytes) {
        rendezvousBytes[ec.id()] += bytes;
    }

    /** {@code n} pulls planned while parsing ran together (counted from two). */
    public void pullBatch(int n) {
        if (n > 1) {
            pullBatches++;
            batchedPulls += n;
        }
    }

    /** An RTS carried pull data. */
    public void exposed() {
        exposedRendezvous++;
    }

    /** A receive was armed for the node agent to match. */
    public void armed() {
        armed++;
    }

    /** The node agent matched an armed receive and placed its message. */
    public void agentMatched() {
        agentMatched++;
    }

    /** Receives armed for the node agent to match. */
    public long armedReceives() {
        return armed;
    }

    /** Receives the node agent matched and filled, with no call from this rank while it did. */
    public long agentMatches() {
        return agentMatched;
    }

    /** A DATA packet announcing {@code chunks} raw chunks went out. */
    public void announced(int chunks) {
        dataPackets++;
        chunksAnnounced += chunks;
    }

    public void packetSent() {
        packets++;
    }

    public void aggregated(int messages) {
        aggregatedPackets++;
        aggregatedMessages += messages;
    }

    public void held(long delta) {
        heldBytes += delta;
        if (heldBytes > heldMax) {
            heldMax = heldBytes;
        }
    }

    /** Engine packets sent (immediate messages, RTS, CTS, DATA headers and credit returns). */
    public long packets() {
        return packets;
    }

    /** Packets that carried more than one entry, and the entries they carried. */
    public long aggregatedPackets() {
        return aggregatedPackets;
    }

    public long aggregatedMessages() {
        return aggregatedMessages;
    }

    /** Rendezvous whose RTS carried pull data (the target pulled, no CTS). */
    public long rendezvousExposed() {
        return exposedRendezvous;
    }

    /** DATA packets sent: each announces the raw chunks that follow it on its rail. */
    public long dataPackets() {
        return dataPackets;
    }

    /** Rendezvous chunks announced by DATA packets: more than {@link #dataPackets()} when packets announced several. */
    public long chunksAnnounced() {
        return chunksAnnounced;
    }

    /** Rendezvous this engine started as the source. */
    public long rendezvousStarted() {
        return rendezvous;
    }

    /** Immediate messages sent over the context {@code name}. */
    public long immediateMessages(String name) {
        int i = index(name);
        return i < 0 ? 0 : immediateMessages[i];
    }

    /** Bytes of immediate messages sent over the context {@code name}. */
    public long immediateBytes(String name) {
        int i = index(name);
        return i < 0 ? 0 : immediateBytes[i];
    }

    /** The contexts (rails) counted, in order. */
    public java.util.List<String> contextNames() {
        return java.util.List.of(names);
    }

    /** Rendezvous bytes sent over the context {@code name}. */
    public long rendezvousBytes(String name) {
        int i = index(name);
        return i < 0 ? 0 : rendezvousBytes[i];
    }

    /** Runs of two or more pulls whose RTS were parsed together before their copies. */
    public long pullBatches() {
        return pullBatches;
    }

    /** Pulls that ran in such runs. */
    public long batchedPulls() {
        return batchedPulls;
    }

    /** Bytes of unexpected immediate messages (and announcements) held now, waiting to be received. */
    public long heldBytes() {
        return heldBytes;
    }

    /** The most ever held at once: bounded by FERRY_EAGER_CREDITS per peer. */
    public long heldMax() {
        return heldMax;
    }

    private int index(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
