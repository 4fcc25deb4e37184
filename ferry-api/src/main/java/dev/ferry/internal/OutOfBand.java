package dev.ferry.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Object streams whose large primitive arrays travel out of band, as pickle's protocol 5 has
 * them: the serialized stream holds a small placeholder (the array's kind and length) in each
 * one's place, and the arrays, taken from the object graph as they are, no copy, go after it as
 * messages of their own; the reader receives each into a new array when its placeholder comes.
 * So an object of many gigabytes moves as a stream of its small parts plus its arrays, each at
 * most a Java array's length, and no byte array of the whole is ever made. Used by
 * {@code dev.ferry.ObjectMessages} and the mpi package's {@code MPI.OBJECT}.
 *
 * <pre>{@code
 * OutOfBand.Output out = new OutOfBand.Output(bytes);
 * out.writeObject(graph);                        // arrays of 64 KiB and more are left out
 * send(bytes); for (Object a : out.arrays()) send(a);
 * // the reader, from the same source and tag:
 * Object g = new OutOfBand.Input(in, a -> receiveInto(a)).readObject();
 * }</pre>
 */
public final class OutOfBand {
    /** Arrays of at least this many bytes go out of band. */
    public static final int MIN_BYTES = 1 << 16;

    private OutOfBand() {
    }

    /** A large primitive array's place in the stream: its element kind ({@code B S C I J F D}) and length. */
    record Placeholder(char kind, int length) implements Serializable {
    }

    /** Receives the next out-of-band array (the reader passes it new, of the placeholder's kind and length). */
    @FunctionalInterface
    public interface Receiver {
        void receive(Object array);
    }

    /** A receiver that copies each array from {@code arrays}, in order: the writer's own arrays, for a block it reads back itself. */
    public static Receiver copying(List<Object> arrays) {
        java.util.Iterator<Object> next = arrays.iterator();
        return array -> {
            java.lang.foreign.MemorySegment from = segment(next.next());
            java.lang.foreign.MemorySegment.copy(from, 0, segment(array), 0, from.byteSize());
        };
    }

    /** Writes objects, leaving large primitive arrays out (collected in the order met). */
    public static final class Output extends ObjectOutputStream {
        private final List<Object> arrays = new ArrayList<>();

        public Output(OutputStream out) throws IOException {
            super(out);
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object o) {
            char kind = kind(o);
            if (kind != 0 && bytes(o) >= MIN_BYTES) {
                arrays.add(o);
                return new Placeholder(kind, java.lang.reflect.Array.getLength(o));
            }
            return o;
        }

        /** The arrays left out, in the order the reader asks for them. */
        public List<Object> arrays() {
            return arrays;
        }
    }

    /** Reads what {@link Output} wrote, receiving each array left out when its place comes. */
    public static final class Input extends ObjectInputStream {
        private final Receiver receiver;

        public Input(InputStream in, Receiver receiver) throws IOException {
            super(in);
            this.receiver = receiver;
            enableResolveObject(true);
        }

        @Override
        protected Object resolveObject(Object o) {
            if (o instanceof Placeholder p) {
                Object a = switch (p.kind()) {
                    case 'B' -> new byte[p.length()];
                    case 'S' -> new short[p.length()];
                    case 'C' -> new char[p.length()];
                    case 'I' -> new int[p.length()];
                    case 'J' -> new long[p.length()];
                    case 'F' -> new float[p.length()];
                    case 'D' -> new double[p.length()];
                    default -> throw new IllegalStateException("an out-of-band array of kind " + p.kind());
                };
                receiver.receive(a);
                return a;
            }
            return o;
        }
    }

    /** The kind letter of a primitive array other than boolean[], else 0. */
    static char kind(Object o) {
        return switch (o) {
            case byte[] a -> 'B';
            case short[] a -> 'S';
            case char[] a -> 'C';
            case int[] a -> 'I';
            case long[] a -> 'J';
            case float[] a -> 'F';
            case double[] a -> 'D';
            case null, default -> 0;
        };
    }

    private static long bytes(Object a) {
        return segment(a).byteSize();
    }

    /** A primitive array {@link #kind} names, as memory. */
    static java.lang.foreign.MemorySegment segment(Object a) {
        return switch (a) {
            case byte[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case short[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case char[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case int[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case long[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case float[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            case double[] x -> java.lang.foreign.MemorySegment.ofArray(x);
            default -> throw new IllegalArgumentException("not an out-of-band array: " + a.getClass().getSimpleName());
        };
    }
}
