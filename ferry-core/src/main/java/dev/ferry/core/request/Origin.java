package dev.ferry.core.request;

/**
 * Where a message came from (a gate implements it): the sender's rank, and the books its
 * credits go back to.
 */
public interface Origin {
    /** The sender's rank. */
    int rank();

    /** {@code credit} bytes of the sender's credits are free again: they go back with the next packet. */
    void returnCredits(int credit);

    /**
     * The layer above receives rendezvous message {@code m} into {@code r}: the request fails
     * at once when the gate did; else the message's carrier takes it from here.
     */
    void receive(Message m, RecvRequest r);
}
