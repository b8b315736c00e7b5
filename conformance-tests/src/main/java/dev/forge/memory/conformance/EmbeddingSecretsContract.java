package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.forge.memory.Capability;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider that keeps vectors keeps the secrets of its embedding model's settings out of its store, its messages and
 * its log: the {@code url} (with a token in its path) and the {@code remote_model} of an {@code openai} model that came
 * from secret-looking variables, and its {@code api_key}. The model is served by an {@link EmbeddingService} on the
 * loopback address.
 *
 * <ul>
 *   <li>Nothing the store keeps (every file under its base directory, or what {@link #storedText} says) holds a secret,
 *       nor does the fingerprint a reindex reports, nor anything logged.</li>
 *   <li>A rotated token in the URL is the same model: the store opens without a reindex and finds what it held. Another
 *       remote model, secret or not, is refused with {@link IndexModelMismatchException}, which shows no secret, old or
 *       new.</li>
 *   <li>Whatever the provider throws, logs or keeps while the service refuses with a 401 echoing the request, answers
 *       with something that is not JSON echoing it, or cannot be reached, holds no secret.</li>
 * </ul>
 *
 * <p>A provider's test names the provider, says where the embedding block goes in its config, and, for a store that is
 * not in files under its base directory, how to read what it keeps.
 */
@Tag(Reliability.TAG)
public abstract class EmbeddingSecretsContract {

    /** The token in the path of the service's URL; rotated to {@link #ROTATED}. */
    protected static final String TOKEN = "tok-Distinctive-5a1f9e37c2";
    /** The token after a rotation. */
    protected static final String ROTATED = "tok-Rotated-88d0b4e61a";
    /** The remote model's name, from a secret variable. */
    protected static final String MODEL = "model-Distinctive-c39e07b2";
    /** Another remote model's name, from a secret variable. */
    protected static final String OTHER_MODEL = "model-Other-74b1e9d05f";
    /** The API key. */
    protected static final String KEY = "sk-Distinctive-3fe1a8c09d";
    private static final List<String> SECRETS = List.of(TOKEN, ROTATED, MODEL, OTHER_MODEL, KEY);

    /** The directory of this test's store, the base directory of every provider it opens. */
    @TempDir
    protected Path base;

    /** The embedding service. */
    protected EmbeddingService service;

    private final List<String> seen = new ArrayList<>();

    /** The factory name of the provider under test. */
    protected abstract String providerName();

    /**
     * The provider's config block with {@code embedding} as the embedding block of the model it keeps vectors of.
     *
     * @param base the store's base directory
     */
    protected abstract Map<String, Object> config(Path base, Map<String, Object> embedding);

    /** The dotted path of the embedding block in {@link #config}: {@code embedding}, {@code search.embedding}... */
    protected abstract String embeddingPath();

    /**
     * Everything the store keeps, as text to look for secrets in: by default the bytes of every file under
     * {@code base} (as ISO-8859-1, so any byte sequence is text). A store kept elsewhere (a database server) adds it.
     */
    protected String storedText(Path base) throws IOException {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(base)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                text.append(file).append('\n').append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
                        .append('\n');
            }
        }
        return text.toString();
    }

    @BeforeEach
    final void startService() throws IOException {
        service = new EmbeddingService();
    }

    @AfterEach
    final void stopService() {
        service.close();
    }

    /**
     * Opens the provider with the model at {@code url} (from a secret variable) named {@code remoteModel} (from a
     * secret variable when {@code modelSecret}), with the key.
     */
    protected MemoryProvider open(String url, String remoteModel, boolean modelSecret) {
        Map<String, Object> embedding = new LinkedHashMap<>(service.embedding(url, remoteModel));
        embedding.put("api_key", KEY);
        String block = "memory.config." + embeddingPath();
        Set<String> secretPaths = modelSecret ? Set.of(block + ".url", block + ".remote_model") : Set.of(block + ".url");
        ProviderConfig config = ProviderConfig.of(config(base, embedding), "config.yaml", "memory.config")
                .withSecretPaths(secretPaths);
        ProviderContext context = ProviderContext.builder().projectId("secrets-project").sessionId("secrets-session")
                .baseDirectory(base).forgeHome(base.resolve("forge-home")).registry(ProviderRegistry.load())
                .config(config).build();
        return context.registry().open(providerName(), context);
    }

    private MemoryProvider openSecret(String token) {
        return open(service.url(token), MODEL, true);
    }

    /**
     * Runs {@code work} with the log captured; keeps what it logged. The test JVM must log with slf4j-simple, which
     * writes to {@code System.err} (with more than one SLF4J provider on the class path, choose it with
     * {@code -Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider}).
     */
    private <T> T logged(Supplier<T> work) {
        PrintStream original = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            // proves the capture: without it the log would be checked on nothing
            org.slf4j.LoggerFactory.getLogger(EmbeddingSecretsContract.class).info("capturing the log of a provider");
            return work.get();
        } finally {
            System.setErr(original);
            seen.add("log: " + log.toString(StandardCharsets.UTF_8));
        }
    }

    private void assertLogCaptured() {
        assertThat(seen).as("the log is captured: the test JVM must log with slf4j-simple to System.err")
                .anySatisfy(text -> assertThat(text).contains("capturing the log of a provider"));
    }

    /** Runs {@code work}, which may fail with a {@link MemoryException}; keeps the failure's stack trace. */
    private void tolerating(Runnable work) {
        try {
            work.run();
        } catch (MemoryException e) {
            keep(e);
        }
    }

    /** Keeps the stack trace of {@code thrown}, causes and all, as seen. */
    private void keep(Throwable thrown) {
        StringWriter trace = new StringWriter();
        thrown.printStackTrace(new PrintWriter(trace, true));
        seen.add("thrown: " + trace);
    }

    private void assertNoSecretSeen() throws IOException {
        assertLogCaptured();
        seen.add("stored: " + storedText(base));
        assertThat(seen).allSatisfy(text -> {
            for (String secret : SECRETS) {
                assertThat(text).doesNotContain(secret).doesNotContain(secret.substring(4, 18));
            }
        });
    }

    private static List<String> keys(List<Hit> hits) {
        return hits.stream().map(h -> h.entry().key()).toList();
    }

    private static List<Hit> semantic(MemoryProvider provider, String text) {
        return provider.search(SearchRequest.builder(text).mode(SearchMode.SEMANTIC).build());
    }

    private static void seed(MemoryProvider provider) {
        provider.set("deploy", "Deploy the service to production on Fridays never", Scope.PROJECT);
        provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT);
        provider.set("prefers", "The user prefers short answers", Scope.GLOBAL);
    }

    @Test
    void the_store_the_fingerprint_and_the_log_hold_no_secret_of_the_model() throws IOException {
        logged(() -> {
            try (MemoryProvider provider = openSecret(TOKEN)) {
                seed(provider);
                assertThat(keys(semantic(provider, "The cache expires entries after ten minutes"))).startsWith("cache");
                seen.add("doctor: " + provider.doctor());
                seen.add("provider: " + provider);
                if (provider.capabilities().contains(Capability.REINDEX)) {
                    seen.add("fingerprint: " + provider.requireReindexing().reindex().fingerprint());
                }
            }
            return null;
        });
        assertNoSecretSeen();
    }

    @Test
    void a_rotated_token_keeps_the_index_and_another_model_is_refused_without_showing_a_secret() throws IOException {
        logged(() -> {
            try (MemoryProvider provider = openSecret(TOKEN)) {
                seed(provider);
            }
            try (MemoryProvider rotated = openSecret(ROTATED)) {
                assertThat(keys(semantic(rotated, "The cache expires entries after ten minutes"))).startsWith("cache");
                rotated.set("after", "Written after the token was rotated", Scope.PROJECT);
                assertThat(keys(semantic(rotated, "Written after the token was rotated"))).startsWith("after");
                List<StoreProblem> problems = rotated.doctor();
                assertThat(problems).as("doctor() after a rotated token").isEmpty();
            }
            for (Supplier<MemoryProvider> other : List.<Supplier<MemoryProvider>>of(
                    () -> open(service.url(ROTATED), OTHER_MODEL, true),
                    () -> open(service.url(TOKEN), "plain-other-model", false))) {
                Throwable refused = catchThrowable(() -> other.get().close());
                assertThat(refused).isInstanceOf(IndexModelMismatchException.class)
                        .hasMessageContaining("forge-memory reindex");
                keep(refused);
            }
            try (MemoryProvider again = openSecret(TOKEN)) {
                assertThat(keys(semantic(again, "Written after the token was rotated"))).startsWith("after");
            }
            return null;
        });
        assertNoSecretSeen();
    }

    @Test
    void errors_of_a_refusing_a_nonsensical_and_an_unreachable_service_show_no_secret() throws IOException {
        logged(() -> {
            try (MemoryProvider provider = openSecret(TOKEN)) {
                seed(provider);
                for (EmbeddingService.Mode mode : List.of(EmbeddingService.Mode.REFUSE, EmbeddingService.Mode.NONSENSE)) {
                    service.answer(mode);
                    tolerating(() -> provider.set("during-" + mode, "Written while the service answers " + mode,
                            Scope.PROJECT));
                    tolerating(() -> semantic(provider, "The cache expires"));
                    tolerating(() -> seen.add("doctor: " + provider.doctor()));
                }
                service.stop();
                tolerating(() -> provider.set("unreachable", "Written while the service is gone", Scope.PROJECT));
                tolerating(() -> semantic(provider, "The cache expires"));
                tolerating(() -> seen.add("doctor: " + provider.doctor()));
            }
            return null;
        });
        assertThat(seen).anySatisfy(text -> assertThat(text).contains("401"));
        assertNoSecretSeen();
    }
}
