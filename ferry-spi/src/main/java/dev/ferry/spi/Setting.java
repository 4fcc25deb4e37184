package dev.ferry.spi;

import java.util.Locale;
import java.util.Objects;

/**
 * A run-time setting: environment variable {@code FERRY_X_Y}, or the Java system property
 * {@code ferry.x.y}, which wins when both are set. Drivers declare theirs through
 * {@link Driver#settings()} so that {@code ferry info} can list every setting with its value.
 *
 * <pre>{@code
 * static final Setting SEGMENT_SIZE = new Setting("FERRY_MY_SEGMENT_SIZE", "4194304", "bytes per shared segment",
 *         Setting.Type.BYTES, "my driver");
 * long size = SEGMENT_SIZE.longValue();
 * }</pre>
 *
 * @param name         the environment variable's name, {@code FERRY_} followed by upper case, digits and underscores
 * @param defaultValue the value when unset, or null for "none"
 * @param description  one line saying what it does
 * @param type         what kind of value it takes
 * @param reader       who reads it: the layer or driver, e.g. {@code engine}, {@code tcp driver}
 */
public record Setting(String name, String defaultValue, String description, Type type, String reader) {
    /** What kind of value a setting takes. */
    public enum Type {
        /** Free text: a name, a key, an identity. */
        TEXT,
        /** {@code on} or {@code off}. */
        SWITCH,
        /** One of the words its description names. */
        CHOICE,
        /** A comma-separated list. */
        LIST,
        /** A size in bytes; where the reader says so, with a k, m or g suffix. */
        BYTES,
        /** A whole number, its unit in the name ({@code _MS}, {@code _S}) or the description. */
        NUMBER
    }

    public Setting {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(reader, "reader");
        if (!name.matches("FERRY_[A-Z0-9_]+")) {
            throw new IllegalArgumentException("setting name must be FERRY_ plus upper case, digits and '_': " + name);
        }
    }

    /** A setting of free text read by {@code reader} (a plugin driver's short form). */
    public Setting(String name, String defaultValue, String description) {
        this(name, defaultValue, description, Type.TEXT, "a plugin");
    }

    /** The system property that overrides the environment: FERRY_EAGER_LIMIT is ferry.eager.limit. */
    public String propertyName() {
        return name.toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** Where the value in the environment comes from: "property", "environment" or "default". */
    public String source() {
        return Settings.fromEnvironment().source(this);
    }

    /** The value in the environment: system property, else environment variable, else the default (maybe null). */
    public String value() {
        return Settings.fromEnvironment().value(this);
    }

    /** The value in {@code settings}. */
    public String value(Settings settings) {
        return settings.value(this);
    }

    /** The value in the environment as a long; a value that does not parse is an error naming the setting. */
    public long longValue() {
        return Settings.fromEnvironment().longValue(this);
    }

    /** The value in {@code settings} as a long. */
    public long longValue(Settings settings) {
        return settings.longValue(this);
    }
}
