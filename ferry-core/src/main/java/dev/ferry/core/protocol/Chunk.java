package dev.ferry.core.protocol;

import dev.ferry.core.request.SendRequest;
import dev.ferry.core.wire.SliceLayout;
import dev.ferry.spi.DataLayout;

/** One piece of a rendezvous the source sends on one rail: a DATA header, then the raw bytes. */
public final class Chunk {
    final SendRequest request;
    final long targetId;
    final long offset;
    final long length;
    final DataLayout bytes;

    Chunk(SendRequest request, long targetId, long offset, long length) {
        this.request = request;
        this.targetId = targetId;
        this.offset = offset;
        this.length = length;
        DataLayout all = request.layout();
        this.bytes = offset == 0 && length == all.size() ? all : new SliceLayout(all, offset, length); // one chunk: the whole message as it is
    }
}
