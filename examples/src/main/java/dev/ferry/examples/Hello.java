package dev.ferry.examples;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;
import dev.ferry.launch.pmi.NodeId;

/**
 * Every rank wires up (driver URLs and node identities exchanged through the launcher), then says
 * hello: {@code hello from rank R of N on node X}.
 *
 * <pre>
 *   bin/ferry run -n 4 --example hello
 * </pre>
 */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) {
        try (Bootstrap boot = Bootstraps.fromEnvironment();
             WireUp wire = WireUp.exchange(boot, DriverSelection.parse(FerrySettings.DRIVERS.value()).select(DriverCatalog.discover().all()))) {
            System.out.println("hello from rank " + wire.rank() + " of " + wire.size() + " on node " + NodeId.hostName());
        }
    }
}
