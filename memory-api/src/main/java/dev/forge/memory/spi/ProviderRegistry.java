package dev.forge.memory.spi;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.UnknownProviderException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider factories found by {@link ServiceLoader}, looked up by name.
 *
 * <p>A factory that fails to load is logged and listed in {@link #problems()}; the others still work. Two
 * factories with one name make that name ambiguous: looking it up fails with both class names, other names
 * still work. Nothing is "first on the class path wins".
 */
public final class ProviderRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderRegistry.class);
    private static final int MAX_LOAD_ERRORS = 100;

    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9-]{0,63}");

    private final java.util.SortedMap<String, MemoryProviderFactory> factories;
    private final Map<String, List<String>> duplicates;
    private final List<String> problems;

    private ProviderRegistry(java.util.SortedMap<String, MemoryProviderFactory> factories, Map<String, List<String>> duplicates, List<String> problems) {
        this.factories = factories;
        this.duplicates = duplicates;
        this.problems = List.copyOf(problems);
    }

    /** The factories visible to the current thread's context class loader (or this class's loader). */
    public static ProviderRegistry load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return load(loader != null ? loader : ProviderRegistry.class.getClassLoader());
    }

    /** The factories visible to {@code loader}. */
    public static ProviderRegistry load(ClassLoader loader) {
        List<MemoryProviderFactory> found = new ArrayList<>();
        Set<String> problems = new LinkedHashSet<>();
        Iterator<MemoryProviderFactory> iterator = ServiceLoader.load(MemoryProviderFactory.class, loader).iterator();
        int errors = 0;
        while (true) {
            if (errors == MAX_LOAD_ERRORS) {
                problems.add("stopped looking for providers after " + MAX_LOAD_ERRORS + " errors");
                break;
            }
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                found.add(iterator.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                errors++;
                String problem = String.valueOf(e);
                if (problems.add(problem)) {
                    LOG.warn("A memory provider factory failed to load and is skipped: {}", problem);
                }
            }
        }
        return of(found, new ArrayList<>(problems));
    }

    /** A registry of exactly these factories. */
    public static ProviderRegistry of(MemoryProviderFactory... factories) {
        return of(List.of(factories), new ArrayList<>());
    }

    private static ProviderRegistry of(List<MemoryProviderFactory> found, List<String> problems) {
        Map<String, MemoryProviderFactory> byName = new TreeMap<>();
        Map<String, List<String>> duplicates = new LinkedHashMap<>();
        for (MemoryProviderFactory factory : found) {
            String name;
            try {
                name = factory.name();
            } catch (RuntimeException | LinkageError e) {
                problems.add(factory.getClass().getName() + ".name() failed: " + e);
                continue;
            }
            if (name == null || !NAME.matcher(name).matches()) {
                problems.add(factory.getClass().getName() + " has an invalid name '" + name
                        + "': use lower-case letters, digits and '-', starting with a letter");
                continue;
            }
            MemoryProviderFactory earlier = byName.putIfAbsent(name, factory);
            if (earlier != null && earlier.getClass() != factory.getClass()) {
                duplicates.computeIfAbsent(name, n -> new ArrayList<>(List.of(earlier.getClass().getName())))
                        .add(factory.getClass().getName());
            }
        }
        duplicates.forEach((name, classes) -> LOG.warn("Memory provider name '{}' is claimed by several factories: {}", name, classes));
        problems.forEach(problem -> LOG.debug("Provider discovery problem: {}", problem));
        return new ProviderRegistry(Collections.unmodifiableSortedMap(new TreeMap<>(byName)), duplicates, problems);
    }

    /** This registry with more problems to report, such as plugin jars that could not be opened. */
    public ProviderRegistry withProblems(List<String> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(problems);
        all.addAll(more);
        return new ProviderRegistry(factories, duplicates, all);
    }

    /** Every name that can be looked up, sorted (ambiguous names included); unmodifiable. */
    public Set<String> names() {
        return factories.keySet();
    }

    /** Error messages of factories that failed to load. */
    public List<String> problems() {
        return problems;
    }

    /**
     * The factory named {@code name}.
     *
     * @throws UnknownProviderException listing the names found, if there is none
     * @throws ConfigurationException   naming both classes, if two factories claim the name
     */
    public MemoryProviderFactory factory(String name) {
        Objects.requireNonNull(name, "name");
        List<String> claimants = duplicates.get(name);
        if (claimants != null) {
            throw new ConfigurationException("Several provider factories are named '" + name + "': "
                    + String.join(" and ", claimants) + ". Remove one of their jars from the class path or plugins folder.");
        }
        MemoryProviderFactory factory = factories.get(name);
        if (factory == null) {
            throw new UnknownProviderException(name, List.copyOf(factories.keySet()), problems);
        }
        return factory;
    }

    /** Opens the provider named {@code name}; see {@link MemoryProviderFactory#open}. */
    public MemoryProvider open(String name, ProviderContext context) {
        return factory(name).open(context);
    }

    @Override
    public String toString() {
        return "ProviderRegistry" + factories.keySet();
    }
}
