package dev.ferry.launch.pmi;

import java.util.ArrayList;
import java.util.List;

/**
 * Values longer than a launcher's limit, split over several keys (seed 000's wide_url_support):
 * {@code KEY.n} holds the number of parts, {@code KEY.0} ... {@code KEY.(n-1)} the parts.
 *
 * <pre>{@code
 * KeyValues.put(boot, "ferry.url.3.tcp", longUrlText);
 * boot.fence();
 * String url = KeyValues.get(boot, "ferry.url.3.tcp");
 * }</pre>
 */
public final class KeyValues {
    private KeyValues() {
    }

    /** Puts {@code value} in as many parts as the launcher's value limit needs. */
    public static void put(Bootstrap b, String key, String value) {
        int chunk = Math.max(1, Math.min(b.maxValueLength(), 1 << 20) - 1);
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < value.length(); i += chunk) {
            parts.add(value.substring(i, Math.min(value.length(), i + chunk)));
        }
        if (parts.isEmpty()) {
            parts.add("");
        }
        checkKey(b, key + "." + (parts.size() - 1));
        b.put(key + ".n", String.valueOf(parts.size()));
        for (int i = 0; i < parts.size(); i++) {
            b.put(key + "." + i, parts.get(i).isEmpty() ? "-" : "+" + parts.get(i));
        }
    }

    /** The value put with {@link #put}, or null when none was. */
    public static String get(Bootstrap b, String key) {
        String n = b.get(key + ".n");
        if (n == null) {
            return null;
        }
        int count;
        try {
            count = Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new PmiException("key " + key + ".n holds '" + n + "', not a part count");
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < count; i++) {
            String p = b.get(key + "." + i);
            if (p == null) {
                throw new PmiException("key " + key + "." + i + " is missing (part " + i + " of " + count + ")");
            }
            sb.append(p.substring(1)); // parts carry a marker, so an empty value survives launchers that drop empty ones
        }
        return sb.toString();
    }

    private static void checkKey(Bootstrap b, String longest) {
        if (longest.length() > b.maxKeyLength()) {
            throw new PmiException("key '" + longest + "' is longer than the launcher's " + b.maxKeyLength() + " characters");
        }
    }
}
