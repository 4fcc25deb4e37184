package dev.ferry.portals;

/**
 * PtlNIInit's two output parameters: the interface's handle and its actual limits.
 *
 * <pre>{@code
 * NiInitResult r = niInit(IFACE_DEFAULT, NI_MATCHING | NI_LOGICAL, PID_ANY, null);
 * NiHandle ni = r.niHandle();
 * }</pre>
 */
public record NiInitResult(NiHandle niHandle, NiLimits actual) {
}
