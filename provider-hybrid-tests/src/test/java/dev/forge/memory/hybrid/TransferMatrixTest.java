package dev.forge.memory.hybrid;

import com.fasterxml.jackson.databind.JsonNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.TestClock;
import dev.forge.memory.conformance.TransferFixture;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.spi.ProviderRegistry;
import dev.forge.memory.transfer.ImportResult;
import dev.forge.memory.transfer.Importer;
import dev.forge.memory.transfer.TransferFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transfer contract across providers: for every pair (source, target) of the providers that exist (the in-memory
 * reference, file, markdown, sqlite, graph on a real Neo4j, vector, and the hybrid router), the fixture written to the
 * source, exported, imported into an empty target and exported again gives the source's document, modulo exactly
 * what the target declares it cannot hold, and the import report counts each such loss. This module's test class path
 * is the one that holds every provider, so the matrix lives here.
 */
class TransferMatrixTest {

    /** How to open each provider on a store directory; the config a user would write. */
    private static final Map<String, Function<ProviderContext, Map<String, Object>>> PROVIDERS = new LinkedHashMap<>();

    static {
        PROVIDERS.put("in-memory", context -> Map.of());
        PROVIDERS.put("file", context -> Map.of());
        PROVIDERS.put("markdown", context -> Map.of());
        PROVIDERS.put("sqlite", context -> Map.of());
        PROVIDERS.put("graph", context -> withoutProvider(HybridSqliteVectorGraphConformanceTest.graph(context)));
        PROVIDERS.put("vector", context -> Map.of("embedding", Map.of("model", "hashing")));
        PROVIDERS.put("hybrid", context -> HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(), null, Map.of()));
    }

    @TempDir
    Path directory;

    private final TestClock clock = new TestClock();
    private final List<MemoryProvider> opened = new ArrayList<>();

    private static Map<String, Object> withoutProvider(Map<String, Object> block) {
        Map<String, Object> copy = new LinkedHashMap<>(block);
        copy.remove("provider");
        return copy;
    }

    static Stream<Arguments> pairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (String source : PROVIDERS.keySet()) {
            for (String target : PROVIDERS.keySet()) {
                pairs.add(Arguments.of(source, target));
            }
        }
        return pairs.stream();
    }

    private MemoryProvider open(String name, String store) throws IOException {
        Path base = Files.createDirectories(directory.resolve(store));
        ProviderContext context = ProviderContext.builder().projectId("project-a").sessionId("session-1").clock(clock)
                .baseDirectory(base).forgeHome(base.resolve("forge-home")).registry(ProviderRegistry.load()).build();
        MemoryProvider provider = context.open(name, ProviderConfig.of(PROVIDERS.get(name).apply(context), "test.yaml", "memory.config"));
        opened.add(provider);
        return provider;
    }

    @AfterEach
    void close() {
        opened.forEach(MemoryProvider::close);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void export_import_export_gives_the_same_document_modulo_what_the_target_cannot_hold(String from, String to) throws IOException {
        MemoryProvider source = open(from, "source");
        TransferFixture.fill(source, clock);
        JsonNode before = TransferFixture.export(source);
        Path file = Files.write(directory.resolve("export.jsonl"), TransferFixture.exportBytes(source, TransferFormat.JSONL));
        MemoryProvider target = open(to, "target");

        ImportResult result = Importer.builder().build().importFile(file, target);

        TransferFixture.assertTransferred(before, TransferFixture.export(target), target, result);

        MemoryProvider migrated = open(to, "migrated");
        ImportResult migration = Importer.builder().build().migrate(source, EnumSet.allOf(Scope.class), migrated);
        TransferFixture.assertTransferred(before, TransferFixture.export(migrated), migrated, migration);
    }
}
