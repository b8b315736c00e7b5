package dev.forge.memory.langchain4j;

import dev.forge.memory.config.Memories;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Opens {@link ForgeEmbeddingStore}s on a named provider in a test's directory, as a program does; closes them. */
final class Stores implements AutoCloseable {

    /** A real LangChain4j model, loaded once: the suites' vectors are its vectors. */
    static final EmbeddingModel MODEL = new AllMiniLmL6V2QuantizedEmbeddingModel();

    /**
     * The hybrid router as the suites run it: sqlite holds the entries (and does keyword search), the vector index the
     * vectors.
     */
    static final String HYBRID_CONFIG = """
            memory:
              provider: hybrid
              config:
                storage: { provider: sqlite }
                search: { provider: vector }
            """;

    private final String provider;
    private ForgeEmbeddingStore store;

    Stores(String provider) {
        this.provider = provider;
    }

    static Memories.Builder memories(Path project, String provider) {
        return Memories.builder().projectDirectory(project).provider(provider).userHome(project.resolve("home"))
                .environment(Map.of()).plugins(false);
    }

    /** The store of {@code project}, opened on first use. */
    ForgeEmbeddingStore store(Path project) {
        if (store == null) {
            if (provider.equals("hybrid")) {
                writeConfig(project, HYBRID_CONFIG);
            }
            store = ForgeEmbeddingStore.builder().memories(memories(project, provider)).embeddingModel(MODEL)
                    .modelId("all-minilm-l6-v2-q").build();
        }
        return store;
    }

    static void writeConfig(Path project, String yaml) {
        try {
            Files.createDirectories(project.resolve(".forge"));
            Files.writeString(project.resolve(".forge/config.yaml"), yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
