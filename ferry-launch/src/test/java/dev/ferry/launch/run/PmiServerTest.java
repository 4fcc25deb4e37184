package dev.ferry.launch.run;

import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;
import dev.ferry.launch.pmi.KeyValues;
import dev.ferry.launch.pmi.PmiException;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded PMI-1 server with real clients over sockets, one thread per rank. */
class PmiServerTest {
    @Test
    void threeRanksPutFenceAndGetEverything() throws Exception {
        List<Integer> barriers = new CopyOnWriteArrayList<>();
        List<int[]> aborts = new CopyOnWriteArrayList<>();
        try (PmiServer server = new PmiServer(3, "kvs_test", new PmiServer.Events() {
            public void aborted(int rank, int code) {
                aborts.add(new int[] {rank, code});
            }

            public void barrierCompleted(int number) {
                barriers.add(number);
            }
        })) {
            List<CompletableFuture<String>> ranks = new ArrayList<>();
            // a thread per rank: they block in fences (the common pool has one thread on two cores)
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(3);
            for (int r = 0; r < 3; r++) {
                int rank = r;
                ranks.add(CompletableFuture.supplyAsync(() -> {
                    try (Bootstrap b = Bootstraps.from(Map.of("PMI_PORT", server.address(), "PMI_ID", String.valueOf(rank)))) {
                        KeyValues.put(b, "v." + b.rank(), ("rank" + b.rank() + "-").repeat(300)); // over 1024: split
                        b.fence();
                        StringBuilder sb = new StringBuilder(b.protocol() + " " + b.rank() + "/" + b.size());
                        for (int o = 0; o < b.size(); o++) {
                            sb.append(' ').append(KeyValues.get(b, "v." + o).length());
                        }
                        b.fence();
                        return sb.toString();
                    }
                }, threads));
            }
            for (int r = 0; r < 3; r++) {
                assertEquals("pmi-1 " + r + "/3 1800 1800 1800", ranks.get(r).get(30, TimeUnit.SECONDS));
            }
            threads.shutdown();
            assertEquals(List.of(1, 2), barriers);
            assertTrue(aborts.isEmpty());
        }
    }

    @Test
    void abortIsReportedAndOversizedValuesRefused() throws Exception {
        CompletableFuture<int[]> abort = new CompletableFuture<>();
        try (PmiServer server = new PmiServer(1, "kvs_a", new PmiServer.Events() {
            public void aborted(int rank, int code) {
                abort.complete(new int[] {rank, code});
            }

            public void barrierCompleted(int number) {
            }
        })) {
            Bootstrap b = Bootstraps.from(Map.of("PMI_PORT", server.address(), "PMI_ID", "0"));
            PmiException e = assertThrows(PmiException.class, () -> b.put("k", "x".repeat(2000)));
            assertTrue(e.getMessage().contains("too_long"), e.getMessage());
            b.abort(9, "test");
            int[] got = abort.get(30, TimeUnit.SECONDS);
            assertEquals(0, got[0]);
            assertEquals(9, got[1]);
        }
    }

    /**
     * A rank whose connection ends after the first fence, without finalizing (its process died),
     * is not waited for at the next: the two others' fence completes.
     */
    @Test
    void aRankGoneAfterAFenceIsNotWaitedForAtTheNext() throws Exception {
        List<Integer> barriers = new CopyOnWriteArrayList<>();
        try (PmiServer server = new PmiServer(3, "kvs_gone", new PmiServer.Events() {
            public void aborted(int rank, int code) {
            }

            public void barrierCompleted(int number) {
                barriers.add(number);
            }
        })) {
            ExecutorService threads = Executors.newFixedThreadPool(2);
            List<Future<String>> ranks = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                ranks.add(threads.submit(() -> {
                    try (Bootstrap b = Bootstraps.from(Map.of("PMI_PORT", server.address(), "PMI_ID", String.valueOf(rank)))) {
                        b.fence();
                        b.put("after." + rank, "x");
                        b.fence(); // rank 2 is gone by now, or goes while this waits
                        return b.get("after." + (1 - rank));
                    }
                }));
            }
            String[] hostPort = server.address().split(":");
            try (Socket dying = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) { // rank 2, speaking PMI-1 itself
                BufferedReader in = new BufferedReader(new InputStreamReader(dying.getInputStream(), StandardCharsets.US_ASCII));
                OutputStream out = dying.getOutputStream();
                out.write("cmd=initack pmiid=2\ncmd=barrier_in\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                for (String line = in.readLine(); !line.startsWith("cmd=barrier_out"); line = in.readLine()) {
                    assertTrue(line.startsWith("cmd="), line);
                }
            } // closed with no finalize, as by a process that died
            for (Future<String> f : ranks) {
                assertEquals("x", f.get(30, TimeUnit.SECONDS));
            }
            threads.shutdown();
            assertEquals(List.of(1, 2), barriers);
        }
    }
}
