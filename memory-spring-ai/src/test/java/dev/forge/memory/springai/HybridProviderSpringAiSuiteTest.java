package dev.forge.memory.springai;

import dev.forge.memory.SearchMode;

/** Spring AI's vector store tests on the hybrid router (sqlite storage, a vector index with the hashing model for search), semantic search. */
class HybridProviderSpringAiSuiteTest extends VectorStoreSuiteBase {

    @Override
    String providerName() {
        return "hybrid";
    }

    @Override
    SearchMode searchMode() {
        return SearchMode.SEMANTIC;
    }
}
