package dev.ferry.driver.tcp;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The addresses a tcp context listens on and advertises: every address of every interface that is
 * up, except link-local IPv6 ones, network interfaces before loopback; filtered by
 * FERRY_TCP_INTERFACES (interface names or CIDRs, like Open MPI's btl_tcp_if_include).
 *
 * <pre>{@code
 * List<InetAddress> a = Interfaces.usable("eth0,10.1.0.0/16");
 * }</pre>
 */
final class Interfaces {
    private Interfaces() {
    }

    /** A parsed FERRY_TCP_INTERFACES item: an interface name, or an address prefix. */
    record Selector(String name, byte[] prefix, int bits) {
        boolean matches(NetworkInterface nif, InetAddress a) {
            if (name != null) {
                return nif.getName().equals(name);
            }
            byte[] b = a.getAddress();
            if (b.length != prefix.length) {
                return false;
            }
            BigInteger mask = bits == 0 ? BigInteger.ZERO
                    : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE).shiftLeft(b.length * 8 - bits);
            return new BigInteger(1, b).and(mask).equals(new BigInteger(1, prefix).and(mask));
        }
    }

    /** Parses "eth0,10.0.0.0/8,fd00::/8"; IllegalArgumentException naming a bad item. */
    static List<Selector> parse(String spec) {
        List<Selector> out = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String raw : spec.split(",")) {
            String item = raw.strip();
            int slash = item.indexOf('/');
            if (slash < 0) {
                if (!item.matches("[A-Za-z0-9_.:@-]+")) {
                    throw new IllegalArgumentException("FERRY_TCP_INTERFACES: '" + item + "' is neither an interface name nor a CIDR");
                }
                out.add(new Selector(item, null, 0));
                continue;
            }
            try {
                String host = item.substring(0, slash);
                if (!host.matches("[0-9a-fA-F.:]+")) {
                    throw new IllegalArgumentException();
                }
                byte[] prefix = InetAddress.getByName(host).getAddress();
                int bits = Integer.parseInt(item.substring(slash + 1));
                if (bits < 0 || bits > prefix.length * 8) {
                    throw new IllegalArgumentException();
                }
                out.add(new Selector(null, prefix, bits));
            } catch (Exception e) {
                throw new IllegalArgumentException("FERRY_TCP_INTERFACES: '" + item + "' is not a valid CIDR");
            }
        }
        return out;
    }

    /** Usable addresses in advertising order; empty when the filter leaves none. */
    static List<InetAddress> usable(String spec) {
        List<Selector> selectors = parse(spec);
        List<InetAddress> network = new ArrayList<>();
        List<InetAddress> loopback = new ArrayList<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nif.isUp()) {
                    continue;
                }
                for (InterfaceAddress ia : nif.getInterfaceAddresses()) {
                    InetAddress a = ia.getAddress();
                    if (a instanceof Inet6Address && (a.isLinkLocalAddress() || ((Inet6Address) a).getScopeId() != 0 && !a.isLoopbackAddress())) {
                        continue;
                    }
                    if (!(a instanceof Inet4Address) && !(a instanceof Inet6Address)) {
                        continue;
                    }
                    if (!selectors.isEmpty() && selectors.stream().noneMatch(s -> s.matches(nif, a))) {
                        continue;
                    }
                    (nif.isLoopback() ? loopback : network).add(a);
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list network interfaces: " + e.getMessage(), e);
        }
        // IPv4 first within each group: the common case, and what a non-wide URL then carries.
        network.sort((x, y) -> Boolean.compare(x instanceof Inet6Address, y instanceof Inet6Address));
        loopback.sort((x, y) -> Boolean.compare(x instanceof Inet6Address, y instanceof Inet6Address));
        network.addAll(loopback);
        return network;
    }
}
