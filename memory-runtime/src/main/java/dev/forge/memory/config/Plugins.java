package dev.forge.memory.config;

import dev.forge.memory.spi.MemoryProviderFactory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provider jars dropped into plugin folders ({@code <project>/.forge/plugins}, {@code $FORGE_HOME/plugins}), loaded
 * through a class loader of their own so that their factories are found without rebuilding anything. A jar that
 * cannot be opened is reported by name and left out, and so is a factory class that a jar's service file names but
 * that is nowhere to be loaded; the others still load. {@code docs/writing-a-provider.md} says how to package one.
 *
 * <p>The loader looks in the plugin jars first, so a plugin may ship its own versions of libraries; only the JDK,
 * the forge-memory API ({@code dev.forge.memory.}) and SLF4J come from the host, so that plugin and host agree on
 * those types. One loader is made per set of jars (same paths, sizes and modification times) and kept for the
 * life of the JVM, so opening providers repeatedly neither reloads plugin classes nor leaks loaders.
 *
 * @param classLoader the loader to discover factories with (the parent itself when there are no jars)
 * @param jars        the jars that were loaded
 * @param problems    one message per jar or folder that could not be used
 */
public record Plugins(ClassLoader classLoader, List<Path> jars, List<String> problems) {

    private static final Logger LOG = LoggerFactory.getLogger(Plugins.class);
    private static final String SERVICE_FILE = "META-INF/services/" + MemoryProviderFactory.class.getName();

    /** Copies the lists. */
    public Plugins {
        jars = List.copyOf(jars);
        problems = List.copyOf(problems);
    }

    /**
     * Loads every {@code *.jar} directly inside the given folders (missing folders are skipped), in folder order
     * and then by file name.
     *
     * @param parent the class loader plugins see the API through
     */
    public static Plugins load(ClassLoader parent, List<Path> folders) {
        List<Path> jars = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<Path, List<String>> listed = new LinkedHashMap<>();
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            List<Path> found = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder, "*.jar")) {
                stream.forEach(found::add);
            } catch (IOException e) {
                problems.add("plugin folder " + folder + " cannot be read: " + e.getMessage());
                continue;
            }
            found.sort(null);
            for (Path jar : found) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    listed.put(jar, factoryClasses(file));
                    jars.add(jar);
                } catch (IOException | SecurityException e) {
                    String problem = "plugin jar " + jar + " is not a readable jar (" + e.getMessage() + "); it was skipped";
                    problems.add(problem);
                    LOG.warn(problem);
                }
            }
        }
        if (jars.isEmpty()) {
            return new Plugins(parent, jars, problems);
        }
        List<URL> urls = new ArrayList<>();
        for (Path jar : jars) {
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                problems.add("plugin jar " + jar + " has no usable URL: " + e.getMessage());
            }
        }
        List<String> identity = new ArrayList<>();
        for (Path jar : jars) {
            try {
                identity.add(jar.toAbsolutePath() + "|" + Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis());
            } catch (IOException e) {
                identity.add(jar.toAbsolutePath().toString());
            }
        }
        identity.add("parent=" + System.identityHashCode(parent));
        ClassLoader loader = LOADERS.computeIfAbsent(identity, key -> {
            LOG.debug("Loading memory provider plugins: {}", jars);
            return new PluginClassLoader(urls.toArray(URL[]::new), parent);
        });
        listed.forEach((jar, classes) -> classes.stream()
                .filter(name -> loader.getResource(name.replace('.', '/') + ".class") == null)
                .map(name -> "plugin jar " + jar + " names " + name + " in " + SERVICE_FILE + ", but that class is neither"
                        + " in the jar nor on the host's class path; that factory was skipped (package the class in the"
                        + " jar, or fix the name)")
                .forEach(problem -> {
                    problems.add(problem);
                    LOG.warn(problem);
                }));
        return new Plugins(loader, jars, problems);
    }

    /**
     * The factory classes a jar's service file names, read as {@link java.util.ServiceLoader} reads them ({@code #}
     * starts a comment); empty without a service file. The loader reports a missing class without the jar's name,
     * so the jar is named here.
     */
    private static List<String> factoryClasses(JarFile jar) throws IOException {
        JarEntry entry = jar.getJarEntry(SERVICE_FILE);
        if (entry == null) {
            return List.of();
        }
        List<String> classes = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(jar.getInputStream(entry), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                int comment = line.indexOf('#');
                String name = (comment < 0 ? line : line.substring(0, comment)).trim();
                if (!name.isEmpty()) {
                    classes.add(name);
                }
            }
        }
        return classes;
    }

    private static final java.util.concurrent.ConcurrentMap<List<String>, ClassLoader> LOADERS = new java.util.concurrent.ConcurrentHashMap<>();

    /** Child-first, except for the JDK, the forge-memory API and SLF4J, which must be the host's. */
    private static final class PluginClassLoader extends URLClassLoader {
        private static final String[] HOST_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.forge.memory.", "org.slf4j."};

        static {
            ClassLoader.registerAsParallelCapable();
        }

        PluginClassLoader(URL[] urls, ClassLoader parent) {
            super("forge-memory-plugins", urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            for (String prefix : HOST_PACKAGES) {
                if (name.startsWith(prefix)) {
                    return super.loadClass(name, resolve);
                }
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    try {
                        loaded = findClass(name);
                    } catch (ClassNotFoundException notInPlugins) {
                        loaded = getParent().loadClass(name);
                    }
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        @Override
        public URL getResource(String name) {
            URL own = findResource(name);
            return own != null ? own : super.getResource(name);
        }
    }
}
