package dev.ferry.portals;

/**
 * What eqGet / eqWait / eqPoll answer: {@code OK} or {@code EQ_DROPPED} with the event,
 * {@code EQ_EMPTY} without one; {@code which} is the index of the queue it came from (eqPoll).
 *
 * <pre>{@code
 * EqResult r = eqPoll(new EqHandle[] {a, b}, 2, 100);
 * if (r.rc() != ReturnCode.EQ_EMPTY) handle(r.which(), r.event());
 * }</pre>
 */
public record EqResult(ReturnCode rc, Event event, int which) {
}
