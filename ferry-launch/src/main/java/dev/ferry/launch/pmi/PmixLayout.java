package dev.ferry.launch.pmi;

/**
 * The PMIx structures Ferry passes to and reads from libpmix (OpenPMIx 4.x, x86-64 and aarch64
 * LP64; read off {@code pmix_common.h} of Debian's libpmix-dev 4.2.2 with {@code sizeof} and
 * {@code offsetof}), and the constants it uses.
 *
 * <pre>
 * pmix_proc_t   (260 bytes, align 4)
 *     0  char[256]  nspace   NUL-terminated
 *   256  u32        rank
 * pmix_value_t  (32 bytes, align 8)
 *     0  u16        type     PMIX_STRING, PMIX_UINT32, PMIX_BYTE_OBJECT, ...
 *     8  union      data     char* string | u32 | bool flag | {char* bytes; size_t size} byte object
 * pmix_info_t   (552 bytes, align 8)
 *     0  char[512]  key
 *   512  u32        flags
 *   520  pmix_value_t value
 * </pre>
 */
final class PmixLayout {
    private PmixLayout() {
    }

    static final long PROC_BYTES = 260;
    static final long PROC_NSPACE = 0;
    static final int NSPACE_MAX = 255;
    static final long PROC_RANK = 256;

    static final long VALUE_BYTES = 32;
    static final long VALUE_TYPE = 0;
    static final long VALUE_DATA = 8;
    /** Size field of a byte object, after its pointer. */
    static final long VALUE_DATA_SIZE = 16;

    static final long INFO_BYTES = 552;
    static final long INFO_KEY = 0;
    static final long INFO_FLAGS = 512;
    static final long INFO_VALUE = 520;
    static final int KEY_MAX = 511;

    static final short PMIX_BOOL = 1;
    static final short PMIX_STRING = 3;
    static final short PMIX_UINT32 = 14;
    static final short PMIX_BYTE_OBJECT = 27;

    static final byte PMIX_GLOBAL = 3;
    static final int PMIX_SUCCESS = 0;
    static final int PMIX_ERR_NOT_FOUND = -46;
    /** PMIX_RANK_WILDCARD: the job itself, for job-level keys. */
    static final int RANK_WILDCARD = 0xFFFF_FFFE;

    static final String JOB_SIZE = "pmix.job.size";
    static final String HOSTNAME = "pmix.hname";
    static final String COLLECT_DATA = "pmix.collect";
}
