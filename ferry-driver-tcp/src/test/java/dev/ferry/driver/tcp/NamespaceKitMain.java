package dev.ferry.driver.tcp;

import dev.ferry.launch.ChildJvm;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs {@link TcpConformanceTest} in this JVM (started inside one network namespace; its peers
 * start in another) and answers "N passed, M failed" to the parent, then the failures.
 */
public final class NamespaceKitMain {
    private NamespaceKitMain() {
    }

    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(TcpConformanceTest.class)).build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary s = listener.getSummary();
        StringWriter failures = new StringWriter();
        s.printFailuresTo(new PrintWriter(failures), 20);
        long failed = s.getTotalFailureCount();
        ChildJvm.answer(s.getTestsSucceededCount() + " passed, " + failed + " failed, " + s.getTestsSkippedCount() + " skipped");
        ChildJvm.answer(failures.toString().replace('\n', ' '));
        System.exit(failed == 0 && s.getTestsSucceededCount() > 0 ? 0 : 1);
    }
}
