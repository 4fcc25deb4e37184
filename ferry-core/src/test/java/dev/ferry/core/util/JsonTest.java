package dev.ferry.core.util;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonTest {
    @Test
    void writesNestedValuesInOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "driver-latency");
        m.put("size", 8);
        m.put("median_us", 0.05);
        m.put("whole", 3.0);
        m.put("ok", true);
        m.put("none", null);
        m.put("list", List.of(1, "a"));
        assertEquals("{\"benchmark\":\"driver-latency\",\"size\":8,\"median_us\":0.05,\"whole\":3,\"ok\":true,\"none\":null,\"list\":[1,\"a\"]}",
                Json.write(m));
    }

    @Test
    void escapesStrings() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", Json.write("a\"b\\c\nd\u0001"));
        assertEquals("null", Json.write(Double.NaN));
    }
}
