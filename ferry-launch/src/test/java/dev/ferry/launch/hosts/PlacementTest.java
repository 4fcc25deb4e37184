package dev.ferry.launch.hosts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PlacementTest {
    private static final List<HostList.Host> HOSTS = HostList.parse("a:2,b:2,c:2");

    @Test
    void bySlotFillsEachHostInTurn() {
        assertEquals(List.of(List.of(0, 1), List.of(2, 3), List.of(4, 5)), Placement.place(HOSTS, 6, Placement.MapBy.SLOT, 0));
        assertEquals(List.of(List.of(0, 1), List.of(2), List.of()), Placement.place(HOSTS, 3, Placement.MapBy.SLOT, 0));
    }

    @Test
    void moreRanksThanSlotsGoRoundAgain() {
        assertEquals(List.of(List.of(0, 1, 6, 7), List.of(2, 3), List.of(4, 5)), Placement.place(HOSTS, 8, Placement.MapBy.SLOT, 0));
    }

    @Test
    void byNodeOneRankPerHostInTurn() {
        assertEquals(List.of(List.of(0, 3), List.of(1, 4), List.of(2, 5)), Placement.place(HOSTS, 6, Placement.MapBy.NODE, 0));
    }

    @Test
    void aFixedNumberPerHostOverridesTheSlots() {
        assertEquals(List.of(List.of(0, 1, 2), List.of(3, 4, 5), List.of()), Placement.place(HOSTS, 6, Placement.MapBy.SLOT, 3));
    }

    @Test
    void mapByNamesWhatItTakes() {
        assertEquals(Placement.MapBy.NODE, Placement.MapBy.parse("node"));
        assertThrows(IllegalArgumentException.class, () -> Placement.MapBy.parse("socket"));
    }
}
