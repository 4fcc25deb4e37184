package dev.ferry.examples;

import dev.ferry.core.boot.WireUp;
import dev.ferry.core.config.FerrySettings;
import dev.ferry.core.driver.DriverCatalog;
import dev.ferry.core.driver.DriverSelection;
import dev.ferry.launch.pmi.Bootstrap;
import dev.ferry.launch.pmi.Bootstraps;

/**
 * The bootstrap exchange and nothing else, for measuring wire-up time
 * ({@code ferry bench wireup}); rank 0 reports what it saw.
 */
public final class Wireup {
    private Wireup() {
    }

    public static void main(String[] args) {
        try (Bootstrap boot = Bootstraps.fromEnvironment();
             WireUp wire = WireUp.exchange(boot, DriverSelection.parse(FerrySettings.DRIVERS.value()).select(DriverCatalog.discover().all()))) {
            if (wire.rank() == 0) {
                System.out.println("wired up " + wire.size() + " ranks on " + wire.nodeCount() + " node(s) over " + boot.protocol());
            }
        }
    }
}
