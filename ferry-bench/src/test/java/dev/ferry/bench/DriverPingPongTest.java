package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DriverPingPongTest {
    @Test
    void bouncesTheCounterToTheEnd() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            DriverPingPong.main(new String[] {"500"});
        } finally {
            System.setOut(old);
        }
        // 500 rounds, each adding 2 (one per side): the last value sent back is 999
        assertEquals("ping-pong over the self driver: 500 rounds, last value 999", out.toString(StandardCharsets.UTF_8).strip());
    }
}
