package dev.ferry.launch.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** This Ferry's version, as the build wrote it: a launcher refuses a proxy of another. */
public final class Version {
    private Version() {
    }

    public static String current() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/ferry/launch/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
