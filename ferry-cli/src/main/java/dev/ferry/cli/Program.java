package dev.ferry.cli;

import dev.ferry.examples.Examples;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * What a rank runs, as {@code ferry run} and {@code ferry exec} take it:
 * {@code MAIN-CLASS [args]}, {@code -jar JAR [args]} or {@code --example NAME [args]}; checked
 * before anything starts, so that a missing class, jar or example is a one-line error.
 *
 * @param mainClass the class whose main runs
 * @param classPath extra class path entries (the user's -cp, or the jar)
 * @param args      the program's arguments
 */
record Program(String mainClass, List<String> classPath, List<String> args) {

    /** Parses from {@code words[from]} on; UsageError naming what is wrong. */
    static Program parse(List<String> words, int from, List<String> userClassPath) {
        if (from >= words.size()) {
            throw new UsageError("no program given: MAIN-CLASS, -jar JAR or --example NAME");
        }
        String first = words.get(from);
        List<String> rest = new ArrayList<>(words.subList(Math.min(words.size(), from + 1), words.size()));
        switch (first) {
            case "--example" -> {
                new Program(Examples.class.getName(), userClassPath, List.of()).urls(); // checks the user's -cp
                if (rest.isEmpty()) {
                    throw new UsageError("--example needs a name (examples: " + String.join(", ", Examples.names()) + ")");
                }
                String name = rest.remove(0);
                if (!Examples.names().contains(name)) {
                    throw new UsageError("no example named '" + name + "' (examples: " + String.join(", ", Examples.names()) + ")");
                }
                List<String> a = new ArrayList<>();
                a.add(name);
                a.addAll(rest);
                return new Program(Examples.class.getName(), userClassPath, a);
            }
            case "-jar" -> {
                if (rest.isEmpty()) {
                    throw new UsageError("-jar needs a jar file");
                }
                Path jar = Path.of(rest.remove(0));
                if (!Files.isRegularFile(jar)) {
                    throw new UsageError("jar file '" + jar + "' does not exist");
                }
                String main;
                try (JarFile jf = new JarFile(jar.toFile())) {
                    main = jf.getManifest() == null ? null : jf.getManifest().getMainAttributes().getValue("Main-Class");
                } catch (IOException e) {
                    throw new UsageError("'" + jar + "' is not a readable jar: " + e.getMessage());
                }
                if (main == null) {
                    throw new UsageError("jar '" + jar + "' names no Main-Class in its manifest");
                }
                List<String> cp = new ArrayList<>(userClassPath);
                cp.add(0, jar.toAbsolutePath().toString());
                Program p = new Program(main, cp, rest);
                p.checkMainClass();
                return p;
            }
            default -> {
                if (first.startsWith("-")) {
                    throw new UsageError("unknown option '" + first + "'");
                }
                Program p = new Program(first, userClassPath, rest);
                p.checkMainClass();
                return p;
            }
        }
    }

    /** The class exists (loaded, not initialised) with a main method. */
    void checkMainClass() {
        try (URLClassLoader loader = new URLClassLoader(urls(), Program.class.getClassLoader())) {
            Class<?> c = Class.forName(mainClass, false, loader);
            c.getMethod("main", String[].class);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw new UsageError("main class '" + mainClass + "' not found on the class path");
        } catch (NoSuchMethodException e) {
            throw new UsageError("class '" + mainClass + "' has no public static void main(String[])");
        } catch (IOException e) {
            throw new UsageError("cannot read the class path: " + e.getMessage());
        }
    }

    URL[] urls() {
        List<URL> urls = new ArrayList<>();
        for (String e : classPath) {
            for (String part : e.split(File.pathSeparator)) {
                if (part.isBlank()) {
                    continue;
                }
                // Checked here, once, rather than by every rank's JVM, which ignores a missing entry
                // and fails later with a ClassNotFoundException far from the typing error.
                try {
                    if (part.endsWith("*")) { // dir/*: the jars in dir, as the JVM reads it
                        Path dir = Path.of(part.substring(0, part.length() - 1));
                        if (!Files.isDirectory(dir)) {
                            throw new UsageError("class path entry '" + part + "': no directory " + dir);
                        }
                        try (var jars = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
                            for (Path j : jars) {
                                urls.add(j.toUri().toURL());
                            }
                        } catch (IOException ex) {
                            throw new UsageError("class path entry '" + part + "': " + ex.getMessage());
                        }
                        continue;
                    }
                    Path p = Path.of(part);
                    if (!Files.exists(p)) {
                        throw new UsageError("class path entry '" + part + "' does not exist");
                    }
                    urls.add(p.toUri().toURL());
                } catch (MalformedURLException | java.nio.file.InvalidPathException ex) {
                    throw new UsageError("bad class path entry '" + part + "'");
                }
            }
        }
        return urls.toArray(URL[]::new);
    }

    /** The rank's full class path: the user's entries first, then Ferry's own. */
    String fullClassPath() {
        List<String> cp = new ArrayList<>(classPath);
        cp.add(System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, cp);
    }

    /** Thrown for bad input: the message is the one line to print; exit status 2. */
    static final class UsageError extends RuntimeException {
        UsageError(String message) {
            super(message);
        }

        /** The line to print, and what raised it (its trace shown with --debug or FERRY_DEBUG=1). */
        UsageError(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Whether to show the traces behind one-line errors: FERRY_DEBUG=1 (or on, true). */
    static boolean debug() {
        String d = dev.ferry.launch.LaunchSettings.DEBUG.value();
        return d != null && (d.equals("1") || d.equalsIgnoreCase("on") || d.equalsIgnoreCase("true"));
    }
}
