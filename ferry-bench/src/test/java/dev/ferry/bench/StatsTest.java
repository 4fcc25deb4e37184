package dev.ferry.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest {
    @Test
    void medianAndNearestRankQuantiles() {
        double[] s = {5, 1, 4, 2, 3};
        assertEquals(3, Stats.median(s));
        assertEquals(2.5, Stats.median(new double[] {4, 1, 2, 3}));
        double[] hundred = new double[100];
        for (int i = 0; i < 100; i++) {
            hundred[i] = 100 - i;
        }
        assertEquals(99, Stats.quantile(hundred, 0.99));
        assertEquals(1, Stats.quantile(hundred, 0));
        assertEquals(100, Stats.quantile(hundred, 1));
        assertEquals(5, s[0], "input left unsorted");
        assertTrue(Double.isNaN(Stats.median(new double[0])));
    }

    @Test
    void roundsToSignificantDigits() {
        assertEquals(0.05123, Stats.round(0.0512345, 4));
        assertEquals(12350, Stats.round(12345.6, 4));
    }
}
