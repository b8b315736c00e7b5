package dev.forge.memory.config;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Provider jars dropped into plugin folders ({@code <project>/.forge/plugins}, {@code $FORGE_HOME/plugins}), loaded
 * through a class loader of their own so that their factories are found without rebuilding anything. A jar that
 * cannot be opened is reported by name and left out; the others still load.
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
                try (JarFile ignored = new JarFile(jar.toFile())) {
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
        return new Plugins(loader, jars, problems);
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
