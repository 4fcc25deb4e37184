package dev.ferry.portals;

/**
 * What ctPoll answers: {@code OK} with the counting event that reached its test and its index
 * {@code which}, or {@code CT_NONE_REACHED} when the time ran out.
 *
 * <pre>{@code
 * CtResult r = ctPoll(new CtHandle[] {a, b}, new long[] {10, 1}, 2, TIME_FOREVER);
 * }</pre>
 */
public record CtResult(ReturnCode rc, CtEvent event, int which) {
}
