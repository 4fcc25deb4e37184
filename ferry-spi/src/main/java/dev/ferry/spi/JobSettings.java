package dev.ferry.spi;

import java.util.List;

/**
 * The settings that name a job, which the launcher sets for its ranks and several layers read:
 * the engine's wire-up and every driver that checks who connects. Declared here, once, where
 * all of them can see it.
 *
 * <pre>{@code
 * String key = hints.settings().value(JobSettings.JOB_KEY);   // null outside a launcher's job
 * }</pre>
 */
public final class JobSettings {
    /** The job's secret, which every connection's handshake must carry. */
    public static final Setting JOB_KEY = new Setting("FERRY_JOB_KEY", null,
            "the job's secret, checked in every connection handshake (ferry run sets one per job; under another launcher rank 0 draws one)",
            Setting.Type.TEXT, "engine wire-up, tcp and ucx drivers");
    /** The job's identity, unique per run, that names its shared files and channels. */
    public static final Setting JOB_ID = new Setting("FERRY_JOB_ID", null,
            "the job's identity (ferry run sets one per job; under another launcher the launcher's job id)",
            Setting.Type.TEXT, "engine wire-up");

    private JobSettings() {
    }

    public static List<Setting> all() {
        return List.of(JOB_KEY, JOB_ID);
    }
}
