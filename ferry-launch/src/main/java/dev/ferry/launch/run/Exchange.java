package dev.ferry.launch.run;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The key-value space behind a PMI server and its fence. On one host it is a map and a fence
 * completes when the local ranks are in it; a multi-host proxy relays its ranks' puts and fences
 * to the launcher, which completes a fence when every host is in it.
 */
public interface Exchange {
    /** Records a rank's put. */
    void put(String key, String value);

    /** The value of {@code key}, or null. */
    String get(String key);

    /**
     * Every rank this server serves is in the fence: run {@code release} once every rank of the
     * job is, with every put made before the fence readable by {@link #get}.
     */
    void fence(Runnable release);

    /** The space of one host's job: fences complete at once. */
    static Exchange local() {
        Map<String, String> kvs = new ConcurrentHashMap<>();
        return new Exchange() {
            @Override
            public void put(String key, String value) {
                kvs.put(key, value);
            }

            @Override
            public String get(String key) {
                return kvs.get(key);
            }

            @Override
            public void fence(Runnable release) {
                release.run();
            }
        };
    }
}
