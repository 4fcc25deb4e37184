package dev.ferry.driver.tcp;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcpAddressTest {
    private static TcpAddress parse(String s) {
        return TcpAddress.parse(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void roundTripsIpv4AndIpv6() {
        TcpAddress a = parse("127.0.0.1:4000/3");
        assertEquals(4000, a.socket().getPort());
        assertEquals(3, a.rank());
        assertArrayEquals("127.0.0.1:4000/3".getBytes(StandardCharsets.US_ASCII), a.encode());
        TcpAddress b = parse("[::1]:5/0");
        assertEquals(5, b.socket().getPort());
        assertEquals(b, parse(new String(b.encode(), StandardCharsets.US_ASCII)));
    }

    @Test
    void refusesWhatIsNotANumericAddress() {
        for (String bad : List.of("", "127.0.0.1:4000", "127.0.0.1/3", "localhost:4000/1", "example.com:1/1",
                "127.0.0.1:0/1", "127.0.0.1:70000/1", "127.0.0.1:1/-1", "127.0.0.1:x/1", "1.2.3:4/0")) {
            assertThrows(IllegalArgumentException.class, () -> parse(bad), bad);
        }
    }

    @Test
    void interfaceFiltersTakeNamesAndCidrs() throws Exception {
        List<Interfaces.Selector> sel = Interfaces.parse("lo, 10.0.0.0/8,fd00::/8");
        assertEquals(3, sel.size());
        assertEquals("lo", sel.get(0).name());
        java.net.NetworkInterface lo = java.net.NetworkInterface.getByName("lo");
        assertTrue(sel.get(1).matches(lo, InetAddress.getByName("10.1.2.3")));
        assertFalse(sel.get(1).matches(lo, InetAddress.getByName("11.1.2.3")));
        assertTrue(sel.get(2).matches(lo, InetAddress.getByName("fd12::1")));
        assertFalse(sel.get(2).matches(lo, InetAddress.getByName("10.1.2.3")));
        assertThrows(IllegalArgumentException.class, () -> Interfaces.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> Interfaces.parse("eth0;rm"));
        assertThrows(IllegalArgumentException.class, () -> Interfaces.parse("host.name/8"));
    }

    @Test
    void loopbackIsFoundByNameAndNothingByAnAbsentName() {
        List<InetAddress> lo = Interfaces.usable("lo");
        assertTrue(lo.stream().anyMatch(a -> a.getHostAddress().equals("127.0.0.1")), lo.toString());
        assertTrue(lo.get(0).getAddress().length == 4, "IPv4 first: " + lo);
        assertTrue(Interfaces.usable("no-such-interface0").isEmpty());
        assertEquals(List.of("127.0.0.1"), Interfaces.usable("127.0.0.0/8").stream().map(InetAddress::getHostAddress).toList());
    }

    @Test
    void aConnectionRequestNamesTheRankItsUrlCarries() {
        assertEquals(5, TcpContext.rankOf(dev.ferry.spi.DriverUrl.single("127.0.0.1:4000/5".getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
        assertEquals(-1, TcpContext.rankOf(dev.ferry.spi.DriverUrl.single("nonsense".getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
    }
}
