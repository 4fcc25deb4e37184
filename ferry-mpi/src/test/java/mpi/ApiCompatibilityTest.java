package mpi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Ferry's {@code mpi} package against the public API of the Open MPI Java bindings (4.1.4) and of
 * mpiJava 1.2 as MPJ Express (0.44) has it, signature by signature. A signature Ferry leaves out on
 * purpose is listed, with the reason, in {@code reference/not-provided.txt}; any other missing or
 * different one fails the test, and so does a listed one that Ferry has after all.
 */
class ApiCompatibilityTest {
    private static Map<String, String> notProvided() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : ApiCompatibility.lines("/mpi/reference/not-provided.txt")) {
            if (l.startsWith("#")) {
                continue;
            }
            int bar = l.indexOf(" | ");
            out.put(l.substring(0, bar).strip(), l.substring(bar + 3).strip());
        }
        return out;
    }

    private static void check(String resource) throws IOException {
        List<String> reference = ApiCompatibility.lines(resource);
        Map<String, String> excused = notProvided();
        List<String> wrong = new ArrayList<>();
        List<String> mismatches = ApiCompatibility.mismatches(reference);
        List<String> missing = new ArrayList<>();
        for (String m : mismatches) {
            String sig = m.substring(0, m.indexOf("  <- "));
            missing.add(sig);
            if (!excused.containsKey(sig)) {
                wrong.add(m);
            }
        }
        for (String sig : excused.keySet()) {
            if (reference.contains(sig) && !missing.contains(sig)) {
                wrong.add(sig + "  <- listed as not provided, but Ferry has it: take it off the list");
            }
        }
        if (!wrong.isEmpty()) {
            fail(resource + ": " + wrong.size() + " of " + reference.size() + " signatures differ:\n  " + String.join("\n  ", wrong));
        }
    }

    @Test
    void openMpiJavaBindings() throws IOException {
        check("/mpi/reference/openmpi-4.1.4.sig");
    }

    @Test
    void openMpiFiveJavaBindings() throws IOException {
        check("/mpi/reference/openmpi-5.0.7.sig");
    }

    @Test
    void mpiJavaAsMpjExpressHasIt() throws IOException {
        check("/mpi/reference/mpj-express-0.44.sig");
    }
}
