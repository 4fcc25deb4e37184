package dev.ferry.portals;

/**
 * PtlGetMap's output parameters: up to {@code mapSize} entries of the map, and its actual size.
 *
 * <pre>{@code
 * GetMapResult m = getMap(ni, 64);
 * for (int r = 0; r < Math.min(64, m.actualMapSize()); r++) use(m.mapping()[r]);
 * }</pre>
 */
public record GetMapResult(ProcessId[] mapping, int actualMapSize) {
}
