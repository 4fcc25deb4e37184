package dev.ferry.spi;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The values of Ferry's settings for one library, engine or driver context: an explicit
 * configuration object, in the manner of Aeron's {@code Context}. Values given with
 * {@link #with} win; what is not given comes from the process's environment (the system
 * property {@code ferry.x.y}, then the variable {@code FERRY_X_Y}) when the object was made by
 * {@link #fromEnvironment()}, and from each setting's default otherwise. Immutable: {@code with}
 * answers a new object, so one configuration can be shared between ranks and threads.
 *
 * <pre>{@code
 * Settings s = Settings.fromEnvironment().with("FERRY_EAGER_LIMIT", "8k");   // the rest from the environment
 * Settings t = Settings.defaults().with("FERRY_DRIVERS", "self");              // the environment not consulted
 * long limit = t.longValue(EngineSettings.EAGER_CREDITS);
 * }</pre>
 */
public final class Settings {
    private static final Settings DEFAULTS = new Settings(Map.of(), false);
    private static final Settings ENVIRONMENT = new Settings(Map.of(), true);

    private final Map<String, String> explicit;
    private final boolean environment;

    private Settings(Map<String, String> explicit, boolean environment) {
        this.explicit = explicit;
        this.environment = environment;
    }

    /** Every value from the environment (system property, then variable), else the setting's default. */
    public static Settings fromEnvironment() {
        return ENVIRONMENT;
    }

    /** Only the settings' defaults: nothing of the environment (tests, embedded uses that must not be steered from outside). */
    public static Settings defaults() {
        return DEFAULTS;
    }

    /**
     * These settings with {@code name} set to {@code value}, which wins over the environment; a
     * null value removes an explicit value.
     *
     * @param name a setting's variable name, {@code FERRY_} followed by upper case, digits and underscores
     */
    public Settings with(String name, String value) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("FERRY_[A-Z0-9_]+")) {
            throw new IllegalArgumentException("setting name must be FERRY_ plus upper case, digits and '_': " + name);
        }
        Map<String, String> m = new LinkedHashMap<>(explicit);
        if (value == null) {
            m.remove(name);
        } else {
            m.put(name, value);
        }
        return new Settings(Map.copyOf(m), environment);
    }

    /** The value of the setting named {@code name} (explicit, else environment if consulted), or null: for names that have no {@link Setting}. */
    public String get(String name) {
        String v = explicit.get(name);
        if (v != null || !environment) {
            return v;
        }
        v = System.getProperty(name.toLowerCase(Locale.ROOT).replace('_', '.'));
        return v != null ? v : System.getenv(name);
    }

    /** The setting's value: explicit, else from the environment if consulted, else its default (maybe null). */
    public String value(Setting s) {
        String v = get(s.name());
        return v != null ? v : s.defaultValue();
    }

    /** The setting's value as a long; a value that does not parse is an error naming the setting. */
    public long longValue(Setting s) {
        String v = value(s);
        if (v == null) {
            throw new IllegalStateException(s.name() + " is not set and has no default");
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s.name() + " must be a whole number, not '" + v + "'", e);
        }
    }

    /** Where the setting's value comes from: "explicit", "property", "environment" or "default". */
    public String source(Setting s) {
        if (explicit.containsKey(s.name())) {
            return "explicit";
        }
        if (environment && System.getProperty(s.propertyName()) != null) {
            return "property";
        }
        return environment && System.getenv(s.name()) != null ? "environment" : "default";
    }

    /** The values given explicitly, by name. */
    public Map<String, String> explicitValues() {
        return explicit;
    }

    /** Whether values not given explicitly come from the environment. */
    public boolean consultsEnvironment() {
        return environment;
    }

    @Override
    public String toString() {
        return (environment ? "environment" : "defaults") + (explicit.isEmpty() ? "" : " with " + explicit);
    }
}
