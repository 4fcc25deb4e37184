import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Prints the public signatures (and the protected ones of abstract classes) of classes of a reference Java MPI API, one per
 * line, in the format ApiCompatibilityTest reads. Run by reference-signatures.sh with the
 * reference classes on the class path:
 *
 *   java -cp REFERENCE SignatureDump.java mpi.MPI mpi.Comm ...
 *
 * Members whose types belong to the reference's own device layers (MPJ Express's mpjdev, mpjbuf,
 * xdev) are left out: no program can use them without that implementation.
 */
public class SignatureDump {
    private static final List<String> DEVICE = List.of("mpjdev.", "mpjbuf.", "xdev.", "java.util.UUID");

    public static void main(String[] args) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        List<Class<?>> classes = new ArrayList<>();
        for (String name : args) {
            Class<?> c = Class.forName(name, false, SignatureDump.class.getClassLoader());
            classes.add(c);
            for (Class<?> n : c.getDeclaredClasses()) {
                if (Modifier.isPublic(n.getModifiers())) {
                    classes.add(n);
                }
            }
        }
        for (Class<?> c : classes) {
            int m = c.getModifiers();
            out.add("class " + c.getName() + (c.isInterface() ? " interface" : Modifier.isAbstract(m) ? " abstract" : "")
                    + (Modifier.isFinal(m) ? " final" : ""));
            // protected members matter to programs only in the classes made to be extended (the abstract ones);
            // elsewhere the references use protected as their package's internal access
            boolean extended = Modifier.isAbstract(m) && !c.isInterface();
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if ((Modifier.isPublic(k.getModifiers()) || extended && Modifier.isProtected(k.getModifiers())) && !device(k.getParameterTypes())) {
                    out.add("ctor " + access(k) + c.getName() + params(k.getParameterTypes()));
                }
            }
            for (Method x : methods(c, extended)) {
                if (device(x.getParameterTypes()) || device(x.getReturnType()) || x.isSynthetic() || x.isBridge()) {
                    continue;
                }
                int mm = x.getModifiers();
                out.add("method " + (Modifier.isStatic(mm) ? "static " : "") + (Modifier.isAbstract(mm) ? "abstract " : "") + access(x)
                        + c.getName() + "#" + x.getName() + params(x.getParameterTypes()) + " " + x.getReturnType().getTypeName());
            }
            for (Field f : c.getFields()) {
                if (device(f.getType()) || f.getDeclaringClass() == Object.class) {
                    continue;
                }
                out.add("field " + (Modifier.isStatic(f.getModifiers()) ? "static " : "") + c.getName() + "#" + f.getName() + " " + f.getType().getTypeName());
            }
        }
        out.forEach(System.out::println);
    }

    /** Public methods (with inherited ones of the same API) and declared protected ones; not Object's. */
    private static List<Method> methods(Class<?> c, boolean withProtected) {
        List<Method> all = new ArrayList<>();
        for (Method x : c.getMethods()) {
            if (x.getDeclaringClass() != Object.class) {
                all.add(x);
            }
        }
        for (Class<?> k = c; withProtected && k != null && k != Object.class; k = k.getSuperclass()) {
            for (Method x : k.getDeclaredMethods()) {
                if (Modifier.isProtected(x.getModifiers())) {
                    all.add(x);
                }
            }
        }
        // one line per name and parameters: the most specific return type
        return all.stream().collect(Collectors.toMap(x -> x.getName() + Arrays.toString(x.getParameterTypes()), x -> x,
                (a, b) -> a.getReturnType().isAssignableFrom(b.getReturnType()) ? b : a)).values().stream().toList();
    }

    private static String access(Member m) {
        return Modifier.isProtected(m.getModifiers()) ? "protected " : "";
    }

    private static boolean device(Class<?>... types) {
        for (Class<?> t : types) {
            String n = t.getTypeName();
            for (String d : DEVICE) {
                if (n.startsWith(d)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String params(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getTypeName).collect(Collectors.joining(",", "(", ")"));
    }
}
