package dev.ferry;

import java.util.List;
import java.util.Map;

/**
 * A rank as JMX shows it (MPI's tools interface, the JVM's way): its settings, each with its
 * value, where the value came from and what it means (MPI_T's control variables), and its
 * counters (its performance variables). With {@code FERRY_JMX=on} every rank registers one, named
 * {@code dev.ferry:type=Rank,rank=R,id=I}, with the platform MBean server, and removes it when it
 * closes; JConsole and JDK Mission Control list it under {@code dev.ferry}. The figures are read
 * when asked, racily: a moment old at most.
 *
 * <pre>{@code
 * MBeanServer server = ManagementFactory.getPlatformMBeanServer();
 * for (ObjectName n : server.queryNames(new ObjectName("dev.ferry:type=Rank,*"), null)) {
 *     FerryMXBean rank = JMX.newMXBeanProxy(server, n, FerryMXBean.class);
 *     System.out.println(rank.getRank() + ": " + rank.getCounters().get("matched on arrival"));
 * }
 * }</pre>
 */
public interface FerryMXBean {
    /** This rank in the job. */
    int getRank();

    /** The ranks in the job. */
    int getSize();

    /** How the job was wired up ({@link Ferry#launcher()}). */
    String getLauncher();

    /** The host this rank runs on. */
    String getNode();

    /** Every setting Ferry reads (the layers' and the drivers'), as this rank resolved it. */
    List<SettingValue> getSettings();

    /**
     * The counters, by name: connections (open, opened, closed idle, evicted), per rail the
     * immediate messages and bytes and the rendezvous bytes sent, rendezvous started, messages
     * sent as envelopes because credits ran out ("credit waits"), packets, eager bytes held
     * unreceived now and at most, the unexpected queue's length, and matching: messages a posted
     * receive took on arrival, messages that arrived unexpected, receives that took one.
     */
    Map<String, Long> getCounters();

    /** The bytes Ferry holds, by kind ({@link FerryStats#bytesHeld()}). */
    Map<String, Long> getBytesHeld();

    /** What went to and came from each peer this rank has contacted (itself included). */
    List<PeerTraffic> getPeers();

    /**
     * A setting: its name, its value here (null when unset and without a default), where the
     * value came from ({@code default}, {@code environment}, {@code property}, or {@code explicit}:
     * a {@link FerryConfig}), and what it means.
     */
    record SettingValue(String name, String value, String source, String meaning) {
    }

    /** Messages and bytes handed to the gate to {@code rank} and delivered from it (control messages included). */
    record PeerTraffic(int rank, long messagesSent, long bytesSent, long messagesReceived, long bytesReceived) {
    }
}
