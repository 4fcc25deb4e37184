package dev.ferry.conformance;

import dev.ferry.launch.ChildJvm;
import dev.ferry.spi.Driver;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Runs a {@link PeerAgent} in its own JVM: commands on standard input, answers on standard output
 * prefixed with {@code "@ "} (so that anything else a driver prints cannot be mistaken for one).
 * Ends on {@code exit} or when standard input closes, i.e. when the test JVM is gone.
 *
 * <pre>
 *   java -cp CLASSPATH dev.ferry.conformance.PeerMain dev.ferry.driver.shm.ShmDriver
 * </pre>
 */
public final class PeerMain {
    private PeerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: PeerMain DRIVER-CLASS");
            System.exit(2);
        }
        Driver driver = (Driver) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        ChildJvm.answer("ready " + ProcessHandle.current().pid());
        try (PeerAgent agent = new PeerAgent(driver);
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                ChildJvm.answer(agent.handle(line));
                if (line.strip().equals("exit")) {
                    break;
                }
            }
        }
        System.exit(0);
    }
}
