package dev.ferry;

/**
 * How the window operations name the library's atomic types and operations: each of the API's
 * primitive kinds is one of the library's datatypes (char is unsigned), and each predefined
 * reduction one of its operations. User-defined operations have none (MPI allows none in
 * one-sided calls); the window itself handles REPLACE and NO_OP (as swaps and neutral fetches)
 * and MINLOC / MAXLOC (under a mutex, {@link WindowOps}).
 */
final class RmaKinds {
    private RmaKinds() {
    }

    /** The library's datatype of the elements {@code type} is made of; a TYPE error when they are of several kinds. */
    static dev.ferry.portals.Datatype element(Datatype type, String what) {
        if (type == null) {
            throw FerryException.arg(ErrorClass.TYPE, what + ": the datatype is null");
        }
        Class<?> k = type.arrayClass;
        if (k == byte[].class) {
            return dev.ferry.portals.Datatype.INT8_T;
        } else if (k == short[].class) {
            return dev.ferry.portals.Datatype.INT16_T;
        } else if (k == char[].class) {
            return dev.ferry.portals.Datatype.UINT16_T;
        } else if (k == int[].class) {
            return dev.ferry.portals.Datatype.INT32_T;
        } else if (k == long[].class) {
            return dev.ferry.portals.Datatype.INT64_T;
        } else if (k == float[].class) {
            return dev.ferry.portals.Datatype.FLOAT;
        } else if (k == double[].class) {
            return dev.ferry.portals.Datatype.DOUBLE;
        }
        throw FerryException.arg(ErrorClass.TYPE, what + ": " + type + " is made of several kinds of element; an accumulate needs one");
    }

    /** The library's operation for a predefined reduction (not REPLACE or NO_OP); an OP error for the others. */
    static dev.ferry.portals.Op op(Op op, dev.ferry.portals.Datatype type, String what) {
        if (op == null) {
            throw FerryException.arg(ErrorClass.OP, what + ": the operation is null");
        }
        dev.ferry.portals.Op p = switch (op.code) {
            case SUM -> dev.ferry.portals.Op.SUM;
            case PROD -> dev.ferry.portals.Op.PROD;
            case MIN -> dev.ferry.portals.Op.MIN;
            case MAX -> dev.ferry.portals.Op.MAX;
            case LAND -> dev.ferry.portals.Op.LAND;
            case LOR -> dev.ferry.portals.Op.LOR;
            case LXOR -> dev.ferry.portals.Op.LXOR;
            case BAND -> dev.ferry.portals.Op.BAND;
            case BOR -> dev.ferry.portals.Op.BOR;
            case BXOR -> dev.ferry.portals.Op.BXOR;
            case null, default -> throw FerryException.arg(ErrorClass.OP, what + ": " + op
                    + " has no one-sided form (the predefined operations, REPLACE and NO_OP have)");
        };
        boolean integer = type != dev.ferry.portals.Datatype.FLOAT && type != dev.ferry.portals.Datatype.DOUBLE;
        if (!integer && p.ordinal() >= dev.ferry.portals.Op.LOR.ordinal()) {
            throw FerryException.arg(ErrorClass.OP, what + ": " + op + " is not defined on floating-point elements");
        }
        return p;
    }
}
