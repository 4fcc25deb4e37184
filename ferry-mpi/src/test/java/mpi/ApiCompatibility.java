package mpi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Checks Ferry's {@code mpi} classes against a reference API's signature list (made by
 * {@code ferry-mpi/tools/reference-signatures.sh} from the real artifacts): every class,
 * constructor, method and field a program of that API may use must be there, so that such a
 * program compiles. A method must take the same parameter types, be static or not alike, and
 * return a type the program's use accepts (the same or a subtype; anything where the reference
 * returns void); a field must be static or not alike and of the same type or a subtype; an
 * abstract class that programs extend must ask them for no method the reference does not.
 * Exceptions: Ferry's MPIException is unchecked, so that programs of both families compile.
 */
final class ApiCompatibility {
    private static final Map<String, Class<?>> PRIMITIVES = Map.of("int", int.class, "long", long.class, "boolean", boolean.class,
            "double", double.class, "float", float.class, "short", short.class, "char", char.class, "byte", byte.class, "void", void.class);

    private ApiCompatibility() {
    }

    static List<String> lines(String resource) throws IOException {
        try (var in = ApiCompatibility.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no resource " + resource);
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    /** The reference's signatures that Ferry's classes lack or have differently, each with what is wrong. */
    static List<String> mismatches(List<String> reference) {
        List<String> out = new ArrayList<>();
        for (String line : reference) {
            String problem = check(line);
            if (problem != null) {
                out.add(line + "  <- " + problem);
            }
        }
        return out;
    }

    private static Class<?> type(String name) throws ClassNotFoundException {
        if (PRIMITIVES.containsKey(name)) {
            return PRIMITIVES.get(name);
        }
        if (name.endsWith("[]")) {
            return type(name.substring(0, name.length() - 2)).arrayType();
        }
        return Class.forName(name, false, ApiCompatibility.class.getClassLoader());
    }

    private static Class<?>[] params(String list) throws ClassNotFoundException {
        String inner = list.substring(1, list.length() - 1);
        if (inner.isEmpty()) {
            return new Class<?>[0];
        }
        String[] names = inner.split(",");
        Class<?>[] out = new Class<?>[names.length];
        for (int i = 0; i < names.length; i++) {
            out[i] = type(names[i]);
        }
        return out;
    }

    private static String check(String line) {
        try {
            String[] w = line.split(" ");
            return switch (w[0]) {
                case "class" -> checkClass(w);
                case "ctor" -> checkConstructor(line.substring(5));
                case "method" -> checkMethod(w);
                case "field" -> checkField(w);
                default -> "an unknown kind of line";
            };
        } catch (ClassNotFoundException e) {
            return "no class " + e.getMessage();
        }
    }

    private static String checkClass(String[] w) throws ClassNotFoundException {
        Class<?> c = type(w[1]);
        if (!Modifier.isPublic(c.getModifiers())) {
            return "not public";
        }
        List<String> flags = Arrays.asList(w).subList(2, w.length);
        if (flags.contains("interface") != c.isInterface()) {
            return c.isInterface() ? "an interface here" : "a class here";
        }
        if (flags.contains("abstract") && hasVisibleConstructor(type(w[1]))) {
            // programs extend it: they must be able to, and Ferry must ask nothing more of them
            if (Modifier.isFinal(c.getModifiers())) {
                return "final here, but programs extend it";
            }
        }
        return null;
    }

    private static boolean hasVisibleConstructor(Class<?> c) {
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())) {
                return true;
            }
        }
        return false;
    }

    private static String checkConstructor(String sig) throws ClassNotFoundException {
        boolean prot = sig.startsWith("protected ");
        String s = prot ? sig.substring(10) : sig;
        int p = s.indexOf('(');
        Class<?> c = type(s.substring(0, p));
        try {
            Constructor<?> k = c.getDeclaredConstructor(params(s.substring(p)));
            if (!Modifier.isPublic(k.getModifiers()) && !(prot && Modifier.isProtected(k.getModifiers()))) {
                return "the constructor is not " + (prot ? "protected or public" : "public") + " here";
            }
            return null;
        } catch (NoSuchMethodException e) {
            return "no such constructor";
        }
    }

    private static String checkMethod(String[] w) throws ClassNotFoundException {
        int i = 1;
        boolean isStatic = false, isAbstract = false, prot = false;
        for (; ; i++) {
            switch (w[i]) {
                case "static" -> isStatic = true;
                case "abstract" -> isAbstract = true;
                case "protected" -> prot = true;
                default -> {
                    return checkMethod(w[i], w[i + 1], isStatic, isAbstract, prot);
                }
            }
        }
    }

    private static String checkMethod(String sig, String returns, boolean isStatic, boolean isAbstract, boolean prot) throws ClassNotFoundException {
        int h = sig.indexOf('#'), p = sig.indexOf('(');
        Class<?> c = type(sig.substring(0, h));
        String name = sig.substring(h + 1, p);
        Method m = find(c, name, params(sig.substring(p)));
        if (m == null) {
            return "no such method";
        }
        if (!Modifier.isPublic(m.getModifiers()) && !(prot && Modifier.isProtected(m.getModifiers()))) {
            return "not " + (prot ? "protected or public" : "public") + " here";
        }
        if (Modifier.isStatic(m.getModifiers()) != isStatic) {
            return isStatic ? "not static here" : "static here";
        }
        if (Modifier.isAbstract(m.getModifiers()) && !isAbstract) {
            return "abstract here: programs that extend the class do not implement it";
        }
        Class<?> want = type(returns);
        if (want != void.class && !want.isAssignableFrom(m.getReturnType())) {
            return "returns " + m.getReturnType().getTypeName() + " here";
        }
        return null;
    }

    private static Method find(Class<?> c, String name, Class<?>[] params) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            try {
                return k.getDeclaredMethod(name, params);
            } catch (NoSuchMethodException e) {
                // look further up
            }
        }
        for (Class<?> i : c.getInterfaces()) {
            Method m = find(i, name, params);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private static String checkField(String[] w) throws ClassNotFoundException {
        boolean isStatic = w[1].equals("static");
        String sig = isStatic ? w[2] : w[1];
        String typeName = isStatic ? w[3] : w[2];
        int h = sig.indexOf('#');
        Class<?> c = type(sig.substring(0, h));
        Field f;
        try {
            f = c.getField(sig.substring(h + 1));
        } catch (NoSuchFieldException e) {
            return "no such field";
        }
        if (Modifier.isStatic(f.getModifiers()) != isStatic) {
            return isStatic ? "not static here" : "static here";
        }
        if (!type(typeName).isAssignableFrom(f.getType())) {
            return "of type " + f.getType().getTypeName() + " here";
        }
        return null;
    }
}
