package dev.ferry.launch.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CapturedJobTest {
    @Test
    void mallocAsksForHugePagesBesideTheTunablesGiven() {
        assertEquals("glibc.malloc.hugetlb=1", CapturedJob.mallocInHugePages(null));
        assertEquals("glibc.malloc.hugetlb=1", CapturedJob.mallocInHugePages(" "));
        assertEquals("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", CapturedJob.mallocInHugePages("glibc.malloc.arena_max=2"));
    }

    @Test
    void aHugePageSettingGivenStaysAsItIs() {
        assertEquals("glibc.malloc.hugetlb=0", CapturedJob.mallocInHugePages("glibc.malloc.hugetlb=0"));
    }

    @Test
    void aJobsRanksRunWithTheSetting() throws Exception {
        CapturedJob.Result r = CapturedJob.run(1, java.util.Map.of(), java.time.Duration.ofSeconds(60), PrintsTunables.class);
        assertEquals(0, r.exit(), r.toString());
        assertEquals(CapturedJob.hugePagesOnRequest(), r.out().contains("glibc.malloc.hugetlb=1"), r.toString());
    }

    /** A rank that prints its glibc tunables. */
    public static final class PrintsTunables {
        public static void main(String[] args) {
            System.out.println("tunables " + System.getenv("GLIBC_TUNABLES"));
        }
    }
}
