package dev.ferry.core.agent;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Programs the agent's tests run as processes of their own: a process whose memory the agent
 * reaches, an agent, and a rank of an agent. Each says what it did on standard output.
 */
public final class AgentPeers {
    static final int HELD = 64 << 10;

    private AgentPeers() {
    }

    /** Byte {@code i} of the memory a holder fills. */
    static byte pattern(long i) {
        return (byte) (i * 7 + 3);
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "hold" -> hold();
            case "agent" -> {
                Agent.Config c = new Agent.Config(Path.of(args[1]), args[2]).withChannels(Path.of(args[3]));
                try (Agent a = Agent.start(c)) {
                    System.out.println("listening " + ProcessHandle.current().pid());
                    a.run();
                }
            }
            case "rank" -> {
                AgentClient c = AgentClient.connect(Path.of(args[1]), args[2], Duration.ofSeconds(10));
                MemorySegment m = Arena.global().allocate(HELD, 64);
                System.out.println("registered " + c.register(m));
                System.in.read(); // until the test kills it (or ends, closing this input)
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /**
     * Holds {@value #HELD} bytes of native memory filled with {@link #pattern}, says "pid address
     * length", then answers lines: {@code same B} (whether every byte is B), {@code pattern}
     * (whether every byte is still the pattern), {@code exit}.
     */
    private static void hold() throws Exception {
        MemorySegment m = Arena.global().allocate(HELD, 64);
        for (long i = 0; i < HELD; i++) {
            m.set(ValueLayout.JAVA_BYTE, i, pattern(i));
        }
        System.out.println(ProcessHandle.current().pid() + " " + m.address() + " " + HELD);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            List<Long> wrong = new ArrayList<>();
            if (line.startsWith("same ")) {
                byte b = (byte) Integer.parseInt(line.substring(5));
                for (long i = 0; i < HELD && wrong.size() < 3; i++) {
                    if (m.get(ValueLayout.JAVA_BYTE, i) != b) {
                        wrong.add(i);
                    }
                }
            } else if (line.equals("pattern")) {
                for (long i = 0; i < HELD && wrong.size() < 3; i++) {
                    if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(i)) {
                        wrong.add(i);
                    }
                }
            } else if (line.equals("exit")) {
                return;
            }
            System.out.println(wrong.isEmpty() ? "ok" : "differs at " + wrong);
        }
    }
}
