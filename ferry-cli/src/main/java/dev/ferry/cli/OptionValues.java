package dev.ferry.cli;

import java.util.List;

/**
 * The values of command-line options, read the same way by every command: a missing value or a
 * number out of range is a {@link Program.UsageError} naming the option.
 *
 * <pre>{@code
 * case "-n" -> n = (int) OptionValues.number(args, ++i, a, 1, 100_000);
 * }</pre>
 */
final class OptionValues {
    private OptionValues() {
    }

    static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new Program.UsageError("option " + option + " needs a value");
        }
        return args.get(i);
    }

    static long number(List<String> args, int i, String option, long min, long max) {
        String v = value(args, i, option);
        long n;
        try {
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new Program.UsageError(option + " takes a whole number, not '" + v + "'");
        }
        if (n < min || n > max) {
            throw new Program.UsageError(option + " must be between " + min + " and " + max + ", not " + n);
        }
        return n;
    }
}
