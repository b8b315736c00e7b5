package dev.forge.memory.support;

import dev.forge.memory.embedding.EmbeddingModelFactory;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.spi.ProviderConfig;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedding model factories found by {@link ServiceLoader}, looked up by name, as providers are. A factory that
 * fails to load is logged and listed in {@link #problems()}; two factories with one name make that name ambiguous.
 *
 * <p>Providers read the model from their {@code embedding} config block:
 * <pre>{@code
 * embedding:
 *   model: hashing     # the model's name; its other settings go beside it
 *   dimension: 384
 * }</pre>
 */
public final class EmbeddingModels {

    /** The key of the model's name in an {@code embedding} block. */
    public static final String MODEL_KEY = "model";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingModels.class);

    private final TreeMap<String, EmbeddingModelFactory> factories = new TreeMap<>();
    private final Map<String, List<String>> duplicates = new TreeMap<>();
    private final List<String> problems;

    private EmbeddingModels(List<EmbeddingModelFactory> found, List<String> problems) {
        for (EmbeddingModelFactory factory : found) {
            EmbeddingModelFactory earlier = factories.putIfAbsent(factory.name(), factory);
            if (earlier != null) {
                duplicates.computeIfAbsent(factory.name(), n -> new ArrayList<>(List.of(earlier.getClass().getName())))
                        .add(factory.getClass().getName());
            }
        }
        duplicates.keySet().forEach(factories::remove);
        this.problems = List.copyOf(problems);
    }

    /** The factories visible to the current thread's context class loader (or this class's loader). */
    public static EmbeddingModels load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return load(loader != null ? loader : EmbeddingModels.class.getClassLoader());
    }

    /** The factories visible to {@code loader}. */
    public static EmbeddingModels load(ClassLoader loader) {
        List<EmbeddingModelFactory> found = new ArrayList<>();
        Set<String> problems = new LinkedHashSet<>();
        Iterator<EmbeddingModelFactory> iterator = ServiceLoader.load(EmbeddingModelFactory.class, loader).iterator();
        for (int errors = 0; errors < 100; ) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                found.add(iterator.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                errors++;
                if (problems.add(String.valueOf(e))) {
                    LOG.warn("An embedding model factory failed to load and is skipped: {}", e.toString());
                }
            }
        }
        return new EmbeddingModels(found, new ArrayList<>(problems));
    }

    /** Exactly these factories. */
    public static EmbeddingModels of(EmbeddingModelFactory... factories) {
        return new EmbeddingModels(List.of(factories), List.of());
    }

    /** The names that can be opened, sorted. */
    public List<String> names() {
        return List.copyOf(factories.keySet());
    }

    /** Factories that failed to load, as messages. */
    public List<String> problems() {
        return problems;
    }

    /**
     * Opens the model an {@code embedding} config block names with its {@code model} key, passing it the other keys.
     *
     * @throws ConfigurationException if {@code model} is missing or unknown, or the model refuses its settings
     */
    public EmbeddingModel open(ProviderConfig block) {
        Object name = block.get(MODEL_KEY).orElseThrow(() -> new ConfigurationException(block.source()
                + ": the embedding block needs 'model', one of: " + String.join(", ", names()) + ".",
                block.source(), block.path() + "." + MODEL_KEY, null));
        if (!(name instanceof String text)) {
            throw new ConfigurationException(block.source() + ": 'model' must be a name, one of: "
                    + String.join(", ", names()) + ".", block.source(), block.path() + "." + MODEL_KEY, null);
        }
        if (block.isSecret(MODEL_KEY) && !factories.containsKey(text)) {
            throw new ConfigurationException(block.source() + ": No embedding model named by '" + MODEL_KEY
                    + "' (its value came from a secret variable and is not shown). Found: "
                    + (factories.isEmpty() ? "none" : String.join(", ", factories.keySet()))
                    + ". Is the model's jar on the class path?", block.source(), block.path() + "." + MODEL_KEY, null);
        }
        return open(text, block.without(MODEL_KEY));
    }

    /**
     * Opens the model named {@code name} with {@code settings}.
     *
     * @throws ConfigurationException if no single factory has that name, or the model refuses its settings
     */
    public EmbeddingModel open(String name, ProviderConfig settings) {
        List<String> ambiguous = duplicates.get(name);
        if (ambiguous != null) {
            throw new ConfigurationException("Two embedding models are named '" + name + "': " + String.join(" and ",
                    ambiguous) + ". Remove one of their jars.", settings.source(), settings.path(), null);
        }
        EmbeddingModelFactory factory = factories.get(name);
        if (factory == null) {
            throw new ConfigurationException("No embedding model named '" + name + "'. Found: "
                    + (factories.isEmpty() ? "none" : String.join(", ", factories.keySet()))
                    + ". Is the model's jar on the class path?"
                    + (problems.isEmpty() ? "" : " Factories that failed to load: " + String.join("; ", problems)),
                    settings.source(), settings.path(), null);
        }
        return factory.open(settings);
    }
}
