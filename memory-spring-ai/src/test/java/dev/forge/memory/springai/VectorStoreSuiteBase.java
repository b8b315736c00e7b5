package dev.forge.memory.springai;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.SearchMode;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.test.vectorstore.BaseVectorStoreTests;
import org.springframework.ai.vectorstore.VectorStore;

/** Spring AI's own vector store tests ({@link BaseVectorStoreTests}) against a real provider on a fresh directory. */
abstract class VectorStoreSuiteBase extends BaseVectorStoreTests {

    @TempDir
    Path directory;

    abstract String providerName();

    abstract SearchMode searchMode();

    @Override
    protected void executeTest(Consumer<VectorStore> testFunction) {
        try (MemoryProvider provider = Providers.open(providerName(), directory)) {
            testFunction.accept(ForgeVectorStore.builder(provider).searchMode(searchMode()).build());
        }
    }
}
