package dev.ferry.driver.ucx;

import dev.ferry.spi.Transport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransportProfileTest {
    /** What ucp_context_print_info printed on the development machine with UCX_TLS=sm and =tcp. */
    private static final String SM = """
            #      resource 0  :  md 0  dev 0  flags -- sysv/memory
            #      resource 1  :  md 1  dev 0  flags -- posix/memory
            #      resource 2  :  md 2  dev 0  flags -- cma/memory
            """;
    private static final String TCP = """
            #            md 0  :  component 1  tcp
            #      resource 0  :  md 0  dev 0  flags -- tcp/lo
            #      resource 1  :  md 0  dev 1  flags -- tcp/eth0
            """;

    @Test
    void resourcesAreReadFromThePrintedContext() {
        assertEquals(List.of("sysv/memory", "posix/memory", "cma/memory"), TransportProfile.transports(SM));
        assertEquals(List.of("tcp/lo", "tcp/eth0"), TransportProfile.transports(TCP));
        assertEquals(List.of(), TransportProfile.transports("# nothing"));
    }

    @Test
    void sharedMemoryOnlyReachesThisNode() {
        TransportProfile p = TransportProfile.of(TransportProfile.transports(SM));
        assertEquals(Transport.LOCAL, p.transport());
        assertFalse(p.rdma());
    }

    @Test
    void getsAreOneSidedOnlyOverRdmaOrXpmem() {
        assertFalse(TransportProfile.of(TransportProfile.transports(SM)).oneSidedGets());
        assertFalse(TransportProfile.of(TransportProfile.transports(TCP)).oneSidedGets());
        assertTrue(TransportProfile.of(List.of("posix/memory", "xpmem/memory")).oneSidedGets());
        assertTrue(TransportProfile.of(List.of("posix/memory", "rc_mlx5/mlx5_0:1", "tcp/eth0")).oneSidedGets());
    }

    @Test
    void tcpIsRemoteWithoutRdmaAndInfinibandIsRdma() {
        TransportProfile tcp = TransportProfile.of(TransportProfile.transports(TCP));
        assertEquals(Transport.REMOTE, tcp.transport());
        assertFalse(tcp.rdma());
        TransportProfile ib = TransportProfile.of(List.of("posix/memory", "rc_mlx5/mlx5_0:1", "tcp/eth0"));
        assertEquals(Transport.REMOTE, ib.transport());
        assertTrue(ib.rdma());
        assertTrue(ib.latencyNs() < tcp.latencyNs() && ib.bandwidthMBps() > tcp.bandwidthMBps());
    }

    @Test
    void whetherTheMmTransportsMayBeInPlay() {
        assertTrue(TransportProfile.mayUseSharedMemory("sm"));
        assertTrue(TransportProfile.mayUseSharedMemory("rc,sm"));
        assertTrue(TransportProfile.mayUseSharedMemory("all"));
        assertTrue(TransportProfile.mayUseSharedMemory("posix,cma"));
        assertFalse(TransportProfile.mayUseSharedMemory("tcp"));
        assertFalse(TransportProfile.mayUseSharedMemory("rc_x,ud_x"));
        assertFalse(TransportProfile.mayUseSharedMemory("^sm"));
        assertTrue(TransportProfile.mayUseSharedMemory("^tcp"));
    }
}
