package dev.ferry.core.agent;

/**
 * One line of a process's {@code /proc/pid/maps}: a mapping's addresses, whether it is a shared
 * mapping of a file, and which file (path, device and inode, offset in it). The format is
 * proc(5)'s: {@code start-end perms offset major:minor inode path}, numbers in hex but the inode.
 *
 * <pre>{@code
 * MapsLine m = MapsLine.parse("7f00a000-7f00c000 rw-s 00001000 00:1a 4711 /dev/shm/x.arena");
 * m.sharedFile();   // true
 * }</pre>
 */
record MapsLine(long start, long end, boolean shared, boolean writable, long offset, long device, long inode, String path) {
    private static final String DELETED = " (deleted)";

    /** A writable shared mapping of a file that still has its name, which another process can so map too. */
    boolean sharedFile() {
        return shared && writable && inode != 0 && path.startsWith("/") && !path.endsWith(DELETED);
    }

    /** The line parsed; null when it is not one of proc(5)'s format. */
    static MapsLine parse(String line) {
        String[] f = line.trim().split("\\s+", 6);
        if (f.length < 5 || f[1].length() != 4) {
            return null;
        }
        try {
            int dash = f[0].indexOf('-'), colon = f[3].indexOf(':');
            if (dash < 0 || colon < 0) {
                return null;
            }
            long start = Long.parseUnsignedLong(f[0], 0, dash, 16), end = Long.parseUnsignedLong(f[0], dash + 1, f[0].length(), 16);
            long major = Long.parseLong(f[3], 0, colon, 16), minor = Long.parseLong(f[3], colon + 1, f[3].length(), 16);
            return new MapsLine(start, end, f[1].charAt(3) == 's', f[1].charAt(1) == 'w', Long.parseUnsignedLong(f[2], 16),
                    device(major, minor), Long.parseLong(f[4]), f.length > 5 ? f[5] : "");
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A device's number as stat(2) gives it (glibc's makedev), from the major and minor that maps prints. */
    static long device(long major, long minor) {
        return (major & 0xfffff000L) << 32 | (major & 0xfffL) << 8 | (minor & 0xffffff00L) << 12 | minor & 0xffL;
    }
}
