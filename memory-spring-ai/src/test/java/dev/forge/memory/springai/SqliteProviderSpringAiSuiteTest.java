package dev.forge.memory.springai;

import dev.forge.memory.SearchMode;

/** Spring AI's vector store tests on the sqlite provider, which has keyword search (FTS5, BM25) and no embeddings. */
class SqliteProviderSpringAiSuiteTest extends VectorStoreSuiteBase {

    @Override
    String providerName() {
        return "sqlite";
    }

    @Override
    SearchMode searchMode() {
        return SearchMode.KEYWORD;
    }
}
