package dev.ferry.core.request;

/**
 * The protocol that carries a message (the protocol room's types implement it): a rendezvous
 * message the layer above receives comes back to its carrier, which moves the bytes.
 */
public interface Carrier {
    /**
     * The receiver's side of message {@code m}, now received into {@code r}: the first
     * {@code accepted} bytes are wanted (0: none, the sender is released).
     */
    void receive(Message m, RecvRequest r, long accepted);
}
