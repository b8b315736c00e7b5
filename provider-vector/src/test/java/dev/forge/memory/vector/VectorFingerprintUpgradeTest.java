package dev.forge.memory.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.conformance.EmbeddingService;
import dev.forge.memory.spi.ProviderConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index written before fingerprints kept secrets out, whose commit data holds the token of a secret {@code url} in
 * clear, keeps working: the model recognises the earlier form, the index opens without a reindex (with the token
 * rotated too), records the current form in its place, and no file keeps the token. Another model is still refused,
 * without the token in the message.
 */
class VectorFingerprintUpgradeTest {

    private static final String TOKEN = "tok-Distinctive-5a1f9e37c2";
    private static final String ROTATED = "tok-Rotated-88d0b4e61a";

    @TempDir
    Path base;

    private EmbeddingService service;

    @BeforeEach
    void start() throws IOException {
        service = new EmbeddingService();
    }

    @AfterEach
    void stop() {
        service.close();
    }

    /** The provider with the service's URL holding {@code token}, marked as from a secret variable. */
    private MemoryProvider open(String token, String remoteModel) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("embedding", service.embedding(service.url(token), remoteModel));
        return new VectorMemoryProviderFactory().open(VectorStores.context(base, "p", Map.of())
                .withConfig(ProviderConfig.of(config, "config.yaml", "memory.config")
                        .withSecretPaths(Set.of("memory.config.embedding.url"))));
    }

    /** What an earlier version recorded: the fingerprint with the URL in clear. */
    private String earlierFingerprint(String token) {
        return "openai:" + service.url(token).substring("http://".length()) + ":embed-model:" + EmbeddingService.DIMENSION
                + ":l2";
    }

    private void recordFingerprint(String fingerprint) throws IOException {
        try (FSDirectory directory = FSDirectory.open(base.resolve(VectorConfig.DEFAULT_PATH));
             IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(new StandardAnalyzer())
                     .setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
            Map<String, String> data = new LinkedHashMap<>();
            writer.getLiveCommitData().forEach(e -> data.put(e.getKey(), e.getValue()));
            data.put("forge.vector.fingerprint", fingerprint);
            writer.setLiveCommitData(data.entrySet());
            writer.commit();
        }
    }

    private String everyFile() throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(base)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                text.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            }
        }
        return text.toString();
    }

    private static List<String> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).build()).stream()
                .map(h -> h.entry().key()).toList();
    }

    @Test
    void an_index_recording_the_token_in_clear_opens_without_reindex_and_forgets_the_token() throws IOException {
        try (MemoryProvider provider = open(TOKEN, "embed-model")) {
            provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
        }
        recordFingerprint(earlierFingerprint(TOKEN));
        assertThat(everyFile()).as("the earlier form is on disk").contains(TOKEN);

        try (MemoryProvider rotated = open(ROTATED, "embed-model")) {
            assertThat(semantic(rotated, "The cache expires entries after ten minutes")).startsWith("cache");
            assertThat(rotated.doctor()).isEmpty();
        }
        assertThat(everyFile()).doesNotContain(TOKEN).doesNotContain(ROTATED);

        recordFingerprint(earlierFingerprint(TOKEN));
        Throwable refused = catchThrowable(() -> open(ROTATED, "another-model").close());
        assertThat(refused).isInstanceOf(IndexModelMismatchException.class);
        assertThat(refused.getMessage()).contains("forge-memory reindex").doesNotContain(TOKEN).doesNotContain(ROTATED)
                .doesNotContain(TOKEN.substring(4, 18));
    }
}
