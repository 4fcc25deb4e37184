package dev.ferry.launch.pmi;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The two PMI wire formats, in one place (the de-facto protocols of MPICH's simple PMI, Hydra and
 * Slurm; see MPICH's {@code src/pmi/maint/pmi-1.2.txt} and {@code pmi-2.0.txt}).
 *
 * <p><b>PMI-1 ("v1")</b>: one line of ASCII per message, {@code cmd=NAME key=value key=value\n};
 * tokens separated by spaces, so values must not contain spaces, '=' or newlines. Example:
 * <pre>
 *   cmd=put kvsname=kvs_7_0 key=ferry.node.0 value=host1
 *   cmd=put_result rc=0 msg=success
 * </pre>
 * <b>PMI-2 ("v2")</b>: a 6-character decimal length (right-aligned, space-padded), then that
 * many bytes: {@code cmd=NAME;key=value;...;}. Values must not contain ';'. Example:
 * <pre>
 *   "    26cmd=kvs-fence;"  (the length counts the bytes after the 6 characters)
 * </pre>
 * A PMI-2 session starts with a PMI-1 line asking for version 2:
 * {@code cmd=init pmi_version=2 pmi_subversion=0}.
 */
public final class PmiWire {
    /** Characters of the PMI-2 length field. */
    public static final int V2_LENGTH_CHARS = 6;
    /** Longest PMI-1 line or PMI-2 message accepted (MPICH's PMIU_MAXLINE is 1024; Slurm's PMI-2 allows more). */
    public static final int MAX_MESSAGE = 64 * 1024;

    private PmiWire() {
    }

    /** A parsed message: its command and its attributes, in order. */
    public record Message(String cmd, Map<String, String> attrs) {
        public String get(String key) {
            return attrs.get(key);
        }

        public int getInt(String key, int fallback) {
            String v = attrs.get(key);
            if (v == null) {
                return fallback;
            }
            try {
                return Integer.parseInt(v.strip());
            } catch (NumberFormatException e) {
                throw new PmiException("PMI attribute " + key + "='" + v + "' is not a number (in cmd=" + cmd + ")");
            }
        }

        /** rc, 0 when absent. */
        public int rc() {
            return getInt("rc", 0);
        }
    }

    /** Formats a PMI-1 line (with its newline). Pairs are key, value, key, value... */
    public static String v1(String cmd, String... pairs) {
        StringBuilder sb = new StringBuilder("cmd=").append(cmd);
        for (int i = 0; i < pairs.length; i += 2) {
            checkV1(pairs[i]);
            checkV1(pairs[i + 1]);
            sb.append(' ').append(pairs[i]).append('=').append(pairs[i + 1]);
        }
        return sb.append('\n').toString();
    }

    private static void checkV1(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\n' || c == '=' || c < 0x20) {
                throw new PmiException("'" + s + "' cannot travel in a PMI-1 message (space, '=', or control character)");
            }
        }
    }

    /** Parses a PMI-1 line (without its newline); PmiException when it is not one. */
    public static Message parseV1(String line) {
        if (!line.startsWith("cmd=")) {
            throw new PmiException("not a PMI-1 message: '" + line + "'");
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        String cmd = null;
        for (String token : line.strip().split(" +")) {
            int eq = token.indexOf('=');
            String k = eq < 0 ? token : token.substring(0, eq);
            String v = eq < 0 ? null : token.substring(eq + 1);
            if (k.equals("cmd")) {
                cmd = v;
            } else {
                attrs.put(k, v);
            }
        }
        if (cmd == null || cmd.isEmpty()) {
            throw new PmiException("PMI-1 message without a command: '" + line + "'");
        }
        return new Message(cmd, attrs);
    }

    /** Formats a PMI-2 message with its length field. */
    public static byte[] v2(String cmd, String... pairs) {
        StringBuilder sb = new StringBuilder("cmd=").append(cmd).append(';');
        for (int i = 0; i < pairs.length; i += 2) {
            checkV2(pairs[i]);
            checkV2(pairs[i + 1]);
            sb.append(pairs[i]).append('=').append(pairs[i + 1]).append(';');
        }
        byte[] body = sb.toString().getBytes(StandardCharsets.US_ASCII);
        if (body.length > 999_999) {
            throw new PmiException("PMI-2 message of " + body.length + " bytes does not fit the 6-digit length");
        }
        byte[] out = new byte[V2_LENGTH_CHARS + body.length];
        byte[] len = String.format("%6d", body.length).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(len, 0, out, 0, V2_LENGTH_CHARS);
        System.arraycopy(body, 0, out, V2_LENGTH_CHARS, body.length);
        return out;
    }

    private static void checkV2(String s) {
        if (s.indexOf(';') >= 0 || s.indexOf('\n') >= 0) {
            throw new PmiException("'" + s + "' cannot travel in a PMI-2 message (';' or newline)");
        }
    }

    /** Parses the 6-character PMI-2 length field. */
    public static int parseV2Length(byte[] six) {
        String s = new String(six, StandardCharsets.US_ASCII).strip();
        int n;
        try {
            n = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new PmiException("bad PMI-2 length field '" + new String(six, StandardCharsets.US_ASCII) + "'");
        }
        if (n < 0 || n > MAX_MESSAGE) {
            throw new PmiException("PMI-2 message length " + n + " outside 0.." + MAX_MESSAGE);
        }
        return n;
    }

    /** Parses a PMI-2 message body (after the length field). ";;" stands for a literal ';' in some servers. */
    public static Message parseV2(String body) {
        Map<String, String> attrs = new LinkedHashMap<>();
        String cmd = null;
        int i = 0;
        while (i < body.length()) {
            StringBuilder token = new StringBuilder();
            while (i < body.length()) {
                char c = body.charAt(i);
                if (c == ';') {
                    if (i + 1 < body.length() && body.charAt(i + 1) == ';') {
                        token.append(';');
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                token.append(c);
                i++;
            }
            String t = token.toString();
            if (t.isEmpty()) {
                continue;
            }
            int eq = t.indexOf('=');
            String k = eq < 0 ? t : t.substring(0, eq);
            String v = eq < 0 ? null : t.substring(eq + 1);
            if (k.equals("cmd")) {
                cmd = v;
            } else {
                attrs.put(k, v);
            }
        }
        if (cmd == null || cmd.isEmpty()) {
            throw new PmiException("PMI-2 message without a command: '" + body + "'");
        }
        return new Message(cmd, attrs);
    }
}
