package dev.ferry.examples;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The examples, by name: {@code ferry run -n 4 --example hello}, or under a foreign launcher
 * {@code mpiexec.hydra -n 4 bin/ferry exec --example hello}.
 */
public final class Examples {
    /** An example's entry point. */
    @FunctionalInterface
    public interface Main {
        void run(String[] args) throws Exception;
    }

    private static final Map<String, Main> ALL = new LinkedHashMap<>();

    static {
        ALL.put("hello", Hello::main);
        ALL.put("ring", Ring::main);
        ALL.put("pi", Pi::main);
        ALL.put("pingpong", PingPong::main);
        ALL.put("wireup", Wireup::main);
        ALL.put("demo", Demo::main);
        ALL.put("put-get", PutGet::main);
        ALL.put("counter", Counter::main);
        ALL.put("lock-cycle", LockCycle::main);
        ALL.put("survivor", Survivor::main);
        ALL.put("pairs", Pairs::main);
    }

    private Examples() {
    }

    public static Set<String> names() {
        return ALL.keySet();
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !ALL.containsKey(args[0])) {
            System.err.println("ferry: " + (args.length == 0 ? "which example?" : "no example named '" + args[0] + "'")
                    + " (examples: " + String.join(", ", ALL.keySet()) + ")");
            System.exit(2);
        }
        String[] rest = new String[args.length - 1];
        System.arraycopy(args, 1, rest, 0, rest.length);
        ALL.get(args[0]).run(rest);
    }
}
