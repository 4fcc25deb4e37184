package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class HmacSha256Test {
    @Test
    void rfc4231TestCase2() {
        byte[] tag = HmacSha256.tag("Jefe".getBytes(StandardCharsets.US_ASCII),
                ByteBuffer.wrap("what do ya want ".getBytes(StandardCharsets.US_ASCII)), ByteBuffer.wrap("for nothing?".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", HexFormat.of().formatHex(tag));
    }

    @Test
    void theSameTagsAsTheJcesMacForKeysShortExactAndLongAndPartsAnywhere() throws Exception {
        Random r = new Random(42);
        for (int keyBytes : new int[] {1, 32, 63, 64, 65, 131}) {
            for (int messageBytes : new int[] {0, 1, 55, 64, 1000}) {
                byte[] key = new byte[keyBytes];
                byte[] message = new byte[messageBytes];
                r.nextBytes(key);
                r.nextBytes(message);
                Mac jce = Mac.getInstance("HmacSHA256");
                jce.init(new SecretKeySpec(key, "HmacSHA256"));
                byte[] expected = jce.doFinal(message);
                int cut = messageBytes / 3;
                ByteBuffer direct = ByteBuffer.allocateDirect(messageBytes - cut).put(message, cut, messageBytes - cut).flip();
                ByteBuffer head = ByteBuffer.wrap(message, 0, cut);
                assertArrayEquals(expected, HmacSha256.tag(key, head, direct), keyBytes + "-byte key, " + messageBytes + "-byte message");
                assertEquals(0, head.position(), "the parts' positions are untouched");
                assertEquals(0, direct.position());
            }
        }
    }
}
