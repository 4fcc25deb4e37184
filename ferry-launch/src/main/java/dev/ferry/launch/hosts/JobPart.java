package dev.ferry.launch.hosts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One host's share of a job, as the launcher sends it to that host's proxy ({@link ProxyWire#SPEC}).
 *
 * @param jobId      the job's id (its /dev/shm files start with {@code ferry-JOBID-})
 * @param jobKey     the job's secret for the ranks' handshakes
 * @param size       the job's number of ranks
 * @param ranks      the global ranks this host runs
 * @param inputRanks those of them that read the launcher's standard input
 * @param javaArgs   the ranks' arguments after {@code java}
 * @param env        added to every rank's environment
 */
public record JobPart(String jobId, String jobKey, int size, List<Integer> ranks, List<Integer> inputRanks,
                      List<String> javaArgs, Map<String, String> env) {
    public JobPart {
        ranks = List.copyOf(ranks);
        inputRanks = List.copyOf(inputRanks);
        javaArgs = List.copyOf(javaArgs);
        env = Map.copyOf(env);
    }

    byte[] encode() {
        List<String> f = new ArrayList<>(List.of(jobId, jobKey, String.valueOf(size), join(ranks), join(inputRanks),
                String.valueOf(javaArgs.size())));
        f.addAll(javaArgs);
        env.forEach((k, v) -> {
            f.add(k);
            f.add(v);
        });
        return ProxyWire.strings(f);
    }

    static JobPart decode(byte[] payload) throws IOException {
        List<String> f = ProxyWire.strings(payload);
        try {
            int args = Integer.parseInt(f.get(5));
            List<String> javaArgs = f.subList(6, 6 + args);
            Map<String, String> env = new LinkedHashMap<>();
            for (int i = 6 + args; i + 1 < f.size(); i += 2) {
                env.put(f.get(i), f.get(i + 1));
            }
            return new JobPart(f.get(0), f.get(1), Integer.parseInt(f.get(2)), split(f.get(3)), split(f.get(4)), javaArgs, env);
        } catch (RuntimeException e) {
            throw new IOException("the launcher's job description is malformed: " + e.getMessage(), e);
        }
    }

    private static String join(List<Integer> v) {
        return v.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static List<Integer> split(String s) {
        return s.isEmpty() ? List.of() : Arrays.stream(s.split(",")).map(Integer::valueOf).toList();
    }
}
