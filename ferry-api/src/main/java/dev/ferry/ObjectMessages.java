package dev.ferry;

import dev.ferry.internal.OutOfBand;
import dev.ferry.internal.OutOfBandArrays;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Objects as messages: any {@link java.io.Serializable} graph, of any size. The graph is
 * serialized with its primitive arrays of 64 KiB and more left out of band (as pickle's protocol
 * 5 does): one message carries the rest, and each such array follows in messages of its own
 * (16 MiB chunks through off-heap staging, two in flight), so an object of many gigabytes (its
 * arrays each up to a Java array's length) moves without a byte array of the whole. The parts go to one destination with one tag, in order; a receive takes them all from
 * the sender of the first.
 *
 * <pre>{@code
 * // rank 0
 * ObjectMessages.send(world, Map.of("weights", new double[400_000_000], "step", 7), 1, 0);   // 3.2 GB
 * // rank 1
 * ObjectMessages.Received r = ObjectMessages.recv(world, Ferry.ANY_SOURCE, 0);
 * Map<?, ?> model = (Map<?, ?>) r.object();
 * }</pre>
 */
public final class ObjectMessages {
    private ObjectMessages() {
    }

    /**
     * What a receive got: the object, its sender's rank in the communicator, the tag, and the bytes
     * that moved (the stream and the arrays).
     */
    public record Received(Object object, int source, int tag, long bytes) {
    }

    /**
     * Sends {@code object} to {@code dest}; returns when its parts may change again.
     *
     * @throws FerryException TYPE when it cannot be serialized; COUNT when what remains of it
     *         after its large arrays is more than 2 GiB
     */
    public static void send(Comm comm, Object object, int dest, int tag) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        java.util.List<Object> arrays;
        try (OutOfBand.Output out = new OutOfBand.Output(bytes)) {
            out.writeObject(object);
            arrays = out.arrays();
        } catch (IOException e) {
            throw FerryException.arg(ErrorClass.TYPE, "ObjectMessages.send: the object cannot be serialized: " + e);
        } catch (OutOfMemoryError e) {
            throw FerryException.arg(ErrorClass.COUNT, "ObjectMessages.send: the object without its primitive arrays of "
                    + OutOfBand.MIN_BYTES + " bytes and more is more than a byte array holds (2 GiB): " + e.getMessage());
        }
        byte[] stream = bytes.toByteArray();
        comm.send(stream, 0L, stream.length, Datatype.BYTE, dest, tag);
        OutOfBandArrays.send(comm, arrays, dest, tag);
    }

    /**
     * Receives an object sent by {@link #send} from {@code source} (or {@link Ferry#ANY_SOURCE})
     * with {@code tag} (or {@link Ferry#ANY_TAG}); its arrays come from the same sender and tag.
     *
     * @throws FerryException TYPE when the message is not such an object or its classes are not here
     */
    public static Received recv(Comm comm, int source, int tag) {
        Message first = comm.mprobe(source, tag);
        if (first.source() == Ferry.PROC_NULL) {
            first.recv(new byte[0], 0, 0, Datatype.BYTE);
            return new Received(null, Ferry.PROC_NULL, Ferry.ANY_TAG, 0);
        }
        byte[] stream = new byte[Math.toIntExact(first.bytes())];
        first.recv(stream, 0, stream.length, Datatype.BYTE);
        int from = first.source(), t = first.tag();
        try (OutOfBandArrays.Receiver arrays = new OutOfBandArrays.Receiver(comm, from, t);
             OutOfBand.Input in = new OutOfBand.Input(new ByteArrayInputStream(stream), arrays)) {
            Object o = in.readObject();
            return new Received(o, from, t, stream.length + arrays.bytes());
        } catch (IOException | ClassNotFoundException e) {
            throw FerryException.arg(ErrorClass.TYPE, "ObjectMessages.recv: the message from rank " + from + ", tag " + t
                    + " is not an object this program can read: " + e);
        }
    }
}
