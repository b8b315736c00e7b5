package dev.forge.memory.langchain4j;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.store.embedding.EmbeddingStore;
import dev.langchain4j.store.embedding.EmbeddingStoreWithRemovalIT;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** LangChain4j's own removal suite, {@link EmbeddingStoreWithRemovalIT}, unchanged, against {@link ForgeEmbeddingStore}. */
abstract class RemovalSuite extends EmbeddingStoreWithRemovalIT {

    @TempDir
    Path project;

    private Stores stores;

    abstract String providerName();

    @Override
    protected EmbeddingStore<TextSegment> embeddingStore() {
        if (stores == null) {
            stores = new Stores(providerName());
        }
        return stores.store(project);
    }

    @Override
    protected EmbeddingModel embeddingModel() {
        return Stores.MODEL;
    }

    @AfterEach
    void closeStore() {
        if (stores != null) {
            stores.close();
        }
    }
}
