package dev.ferry.spi;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The phases of the one idle strategy, and how strategies are composed from the default. */
class IdleStrategyTest {
    /** A sleep that records what it was given instead of sleeping. */
    private static final class Recorded implements IdleStrategy.Sleep {
        final List<Long> calls = new ArrayList<>();

        @Override
        public void sleep(long maxNanos) {
            calls.add(maxNanos);
        }
    }

    @Test
    void onlyTheLastPhaseSleepsAndItIsGivenTheTimeLeft() {
        Recorded r = new Recorded();
        IdleStrategy s = IdleStrategy.DEFAULT.withSleep(r, 5_000_000);
        s.idle(0, 1_000);                // spin
        s.idle(500_000, 1_000);          // yield
        s.idle(2_000_000, 1_000);        // nap, bounded by the time left
        assertTrue(r.calls.isEmpty(), "no sleep before the last phase: " + r.calls);
        s.idle(5_000_000, 123_456);
        s.idle(60_000_000_000L);
        assertEquals(List.of(123_456L, Long.MAX_VALUE), r.calls);
        s.idle(6_000_000, -5);           // a deadline already past: it still sleeps at least a nanosecond, never a negative time
        assertEquals(1L, r.calls.get(2));
    }

    @Test
    void aWaiterParksFromTheNapsOnAndReadsTheClockOnEveryLookOnceItStopsSpinning() {
        IdleStrategy s = IdleStrategy.DEFAULT;
        assertFalse(s.parks(0));
        assertFalse(s.parks(s.spinNanos()));
        assertTrue(s.parks(s.yieldNanos()));
        assertTrue(s.clockDue(64, 0));
        assertFalse(s.clockDue(63, 0));
        assertTrue(s.clockDue(63, s.spinNanos()));
    }

    @Test
    void compositionKeepsThePhasesInOrder() {
        IdleStrategy s = IdleStrategy.DEFAULT.withSpin(2_000_000); // past the default's yields: they start where spinning ends
        assertEquals(2_000_000, s.spinNanos());
        assertTrue(s.yieldNanos() >= s.spinNanos() && s.sleepAfterNanos() >= s.yieldNanos());
        IdleStrategy t = IdleStrategy.DEFAULT.withSleep(IdleStrategy.PARK, 10_000); // sleeping early cuts the spin short
        assertEquals(10_000, t.sleepAfterNanos());
        assertTrue(t.spinNanos() <= 10_000 && t.yieldNanos() <= 10_000);
        assertEquals(50_000, IdleStrategy.DEFAULT.withMaxNap(50_000).maxNapNanos());
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new IdleStrategy(10, 5, 20, 1, IdleStrategy.PARK));
        assertTrue(x.getMessage().contains("out of order"), x.getMessage());
    }

    @Test
    void awaitAnswersWhenTheConditionHoldsOrTheBoundPassed() throws Exception {
        AtomicBoolean flag = new AtomicBoolean();
        Thread setter = Thread.ofPlatform().start(() -> flag.set(true));
        assertTrue(IdleStrategy.DEFAULT.await(flag::get, Long.MAX_VALUE));
        setter.join();
        assertFalse(IdleStrategy.DEFAULT.await(() -> false, 2_000_000), "nothing sets it: the bound ends the wait");
    }

    @Test
    void untilLooksUntilTheAnswerIsNoLongerNotYetAndIdlesBetweenLooks() {
        Recorded slept = new Recorded();
        IdleStrategy sleepAtOnce = IdleStrategy.DEFAULT.withSleep(slept, 0);
        int[] looks = {0};
        Status s = sleepAtOnce.until(() -> ++looks[0] < 4 ? Status.NOT_YET : Status.BROKEN);
        assertEquals(Status.BROKEN, s);
        assertEquals(4, looks[0]);
        assertEquals(3, slept.calls.size(), "one idle between two looks: " + slept.calls);
        assertEquals(Status.DONE, IdleStrategy.DEFAULT.until(() -> Status.DONE), "an answer at once: no idle");
    }
}
