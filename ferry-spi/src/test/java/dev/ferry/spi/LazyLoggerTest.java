package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A lazy logger reaches the logger of its name at its first use, and records name their real caller. */
class LazyLoggerTest {
    @Test
    void recordsReachTheNamedLoggerWithTheCallerAsTheirSource() {
        String name = "dev.ferry.spi.LazyLoggerTest.probe";
        System.Logger lazy = LazyLogger.of(name);
        assertEquals(name, lazy.getName());
        List<LogRecord> seen = new ArrayList<>();
        Logger jul = Logger.getLogger(name);
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                r.getSourceClassName(); // inferred from the stack of the call, so now
                seen.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(h);
        jul.setUseParentHandlers(false);
        try {
            lazy.log(System.Logger.Level.WARNING, "peer {0} is gone", 3);
            lazy.log(System.Logger.Level.DEBUG, "not at this level");
        } finally {
            jul.removeHandler(h);
        }
        assertEquals(1, seen.size());
        LogRecord r = seen.get(0);
        assertEquals("peer {0} is gone", r.getMessage());
        assertEquals(3, r.getParameters()[0]);
        assertEquals(LazyLoggerTest.class.getName(), r.getSourceClassName(), "the wrapper is not the source");
    }
}
