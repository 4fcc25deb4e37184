package dev.ferry;

/**
 * A persistent collective: its schedule, tag and temporary memory are made at init, and each
 * start runs the same schedule again with the transfers' requests of the first run set up anew,
 * so a start allocates nothing. Its runs keep the tag of its init: every member inits its
 * collectives in the same order, and one run's messages from a peer all come before the next's.
 */
final class PersistentCollective extends PersistentRequest {
    private final CollOp op;

    PersistentCollective(CollOp op) {
        super(op.messaging);
        this.op = op;
    }

    @Override
    void begin(int round) {
        op.comm().checkLive();
        op.restart();
        messaging.start(op);
    }

    @Override
    Status poll(int round) {
        return op.current();
    }

    @Override
    void release() {
        op.release();
    }

    @Override
    public String toString() {
        return "persistent " + op;
    }
}
