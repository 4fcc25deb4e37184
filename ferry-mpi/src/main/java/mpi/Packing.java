package mpi;

/** MPI_Pack and MPI_Unpack over Ferry's datatypes (booleans through a byte copy). */
final class Packing {
    private Packing() {
    }

    static int pack(Object inbuf, int offset, int incount, Datatype type, byte[] outbuf, int position) {
        Object in = inbuf instanceof boolean[] b ? Bools.toBytes(b) : Buf.target(inbuf);
        return Comm.t(type, "type").pack(in, Buf.offset(inbuf, offset), incount, outbuf, position);
    }

    static int unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype type) {
        Object out = Comm.data(outbuf);
        int end = Comm.t(type, "type").unpack(inbuf, position, out, Buf.offset(outbuf, offset), outcount);
        Comm.back(outbuf, out);
        return end;
    }
}
