package dev.ferry.launch.pmi;

import java.util.HashMap;
import java.util.Map;

/** A process started with no launcher: a job of one, with a private key-value space. */
public final class SingletonBootstrap implements Bootstrap {
    private final Map<String, String> kvs = new HashMap<>();
    private final String jobId = "singleton-" + ProcessHandle.current().pid();

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public String protocol() {
        return "singleton";
    }

    @Override
    public int maxValueLength() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int maxKeyLength() {
        return Integer.MAX_VALUE;
    }

    @Override
    public boolean wideUrlSupport() {
        return true;
    }

    @Override
    public synchronized void put(String key, String value) {
        kvs.put(key, value);
    }

    @Override
    public void fence() {
        // alone: nothing to wait for
    }

    @Override
    public synchronized String get(String key) {
        return kvs.get(key);
    }

    @Override
    public void abort(int exitCode, String message) {
        System.err.println("ferry: aborted: " + message);
        Runtime.getRuntime().halt(exitCode);
    }

    @Override
    public void close() {
        // nothing to finalize
    }
}
