package dev.ferry.driver.tcp;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * One address of a tcp context URL: {@code IPV4:PORT/RANK} or {@code [IPV6]:PORT/RANK}, ASCII.
 * The rank lets the connecting side say whom it expects to reach.
 *
 * <pre>{@code
 * TcpAddress a = TcpAddress.parse("127.0.0.1:40123/2".getBytes(US_ASCII));
 * }</pre>
 */
record TcpAddress(InetSocketAddress socket, int rank) {

    byte[] encode() {
        InetAddress a = socket.getAddress();
        String host = a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
        return (host + ":" + socket.getPort() + "/" + rank).getBytes(StandardCharsets.US_ASCII);
    }

    /** Parses a numeric address; IllegalArgumentException naming what is wrong otherwise (no name lookups). */
    static TcpAddress parse(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.US_ASCII);
        if (bytes.length > 128) {
            throw new IllegalArgumentException("tcp address longer than 128 bytes");
        }
        int slash = s.lastIndexOf('/');
        int colon = s.lastIndexOf(':', slash < 0 ? s.length() : slash);
        if (slash < 0 || colon < 0 || colon > slash) {
            throw new IllegalArgumentException("tcp address '" + s + "' is not HOST:PORT/RANK");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (!host.matches("[0-9a-fA-F.:%a-z0-9]+") || host.isEmpty()) {
            throw new IllegalArgumentException("tcp address '" + s + "' has no numeric host");
        }
        int port;
        int rank;
        try {
            port = Integer.parseInt(s.substring(colon + 1, slash));
            rank = Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("tcp address '" + s + "' has a bad port or rank");
        }
        if (port < 1 || port > 65535 || rank < 0) {
            throw new IllegalArgumentException("tcp address '" + s + "': port or rank out of range");
        }
        InetAddress addr;
        try {
            // Numeric literals only: getByName does no lookup for them; letters besides hex are refused above.
            if (!host.contains(":") && !host.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
                throw new IllegalArgumentException("tcp address '" + s + "' has no numeric host");
            }
            addr = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("tcp address '" + s + "': " + e.getMessage());
        }
        return new TcpAddress(new InetSocketAddress(addr, port), rank);
    }
}
