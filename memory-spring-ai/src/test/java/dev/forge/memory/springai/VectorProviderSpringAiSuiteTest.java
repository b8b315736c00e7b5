package dev.forge.memory.springai;

import dev.forge.memory.SearchMode;

/** Spring AI's vector store tests on the vector provider (Lucene, the hashing model), semantic search. */
class VectorProviderSpringAiSuiteTest extends VectorStoreSuiteBase {

    @Override
    String providerName() {
        return "vector";
    }

    @Override
    SearchMode searchMode() {
        return SearchMode.SEMANTIC;
    }
}
