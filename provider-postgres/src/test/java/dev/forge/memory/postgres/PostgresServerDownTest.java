package dev.forge.memory.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.Hit;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.postgres.testserver.LocalPostgres;
import dev.forge.memory.postgres.testserver.LocalPostgres.Server;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that goes down after the provider opened: every call fails with {@link BackendUnavailableException} naming
 * host and port and saying what to do, after at most {@code connect_timeout} (3 s here), and once the server is back the
 * same provider works again, with everything written before still there. The server is this test's own (started from
 * the machine's binaries, since it is stopped), not the one the other tests share.
 */
class PostgresServerDownTest {

    @TempDir
    Path directory;

    @Test
    void calls_fail_as_backend_unavailable_while_the_server_is_down_and_the_provider_recovers_when_it_is_back()
            throws Exception {
        LocalPostgres.Instance instance = null;
        String unavailable = null;
        try {
            instance = LocalPostgres.startInstance();
        } catch (LocalPostgres.Unavailable e) {
            unavailable = e.getMessage();
        }
        String reason = unavailable;
        assumeTrue(instance != null, () -> "No PostgreSQL server of this test's own to stop: " + reason);
        try (LocalPostgres.Instance server = instance; MemoryProvider provider = open(server.server())) {
            MemoryEntry decision = provider.set("decision", "use PostgreSQL for shared memory", Scope.PROJECT,
                    List.of("db"), Map.of("by", "team"));
            provider.set("style", "records for values", Scope.GLOBAL, List.of(), Map.of());
            provider.requireGraph().relate(EntryRef.of("decision", Scope.PROJECT), EntryRef.of("style", Scope.GLOBAL),
                    "relates_to");
            try (MemoryTransaction tx = provider.requireTransactions().begin()) {
                tx.set("plan", "migrate the sqlite store", Scope.PROJECT, List.of(), Map.of());
                tx.commit();
            }

            server.stop(true);
            String address = server.server().host() + ":" + server.server().port();
            unavailable(() -> provider.get("decision", Scope.PROJECT), address);
            unavailable(() -> provider.set("decision", "changed while down", Scope.PROJECT, List.of(), Map.of()), address);
            unavailable(() -> provider.search(SearchRequest.keyword("PostgreSQL")), address);
            unavailable(() -> {
                try (MemoryTransaction tx = provider.requireTransactions().begin()) {
                    tx.set("plan", "changed while down", Scope.PROJECT, List.of(), Map.of());
                    tx.delete("style", Scope.GLOBAL);
                    tx.commit();
                }
            }, address);

            server.start();
            assertThat(provider.get("decision", Scope.PROJECT)).contains(decision);
            assertThat(provider.get("plan", Scope.PROJECT)).map(MemoryEntry::value).contains("migrate the sqlite store");
            assertThat(provider.get("style", Scope.GLOBAL)).isPresent();
            assertThat(provider.requireGraph().relations(EntryRef.of("decision", Scope.PROJECT),
                    dev.forge.memory.Direction.OUTGOING)).hasSize(1);
            assertThat(provider.search(SearchRequest.keyword("PostgreSQL"))).extracting(Hit::entry).containsExactly(decision);
            assertThat(provider.set("decision", "still PostgreSQL", Scope.PROJECT, List.of(), Map.of()).version())
                    .as("nothing written while down took a version").isEqualTo(2);
            try (MemoryTransaction tx = provider.requireTransactions().begin()) {
                tx.set("plan", "done", Scope.PROJECT, List.of(), Map.of());
                tx.commit();
            }
            assertThat(provider.requireHistory().versions("plan", Scope.PROJECT)).extracting(MemoryEntry::value)
                    .containsExactly("migrate the sqlite store", "done");
        }
    }

    private MemoryProvider open(Server server) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", server.url(server.database()));
        settings.put("username", server.user());
        settings.put("password", server.password());
        settings.put("schema", "server_down");
        settings.put("connect_timeout", "3s");
        settings.put("pool_size", 2);
        ProviderContext context = ProviderContext.builder().config(ProviderConfig.of(settings)).projectId("p")
                .sessionId("s").baseDirectory(directory).forgeHome(directory.resolve("home")).build();
        return new PostgresMemoryProviderFactory().open(context);
    }

    private static void unavailable(ThrowingCallable call, String address) {
        assertThatThrownBy(call).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("PostgreSQL at " + address)
                .hasMessageContaining("Start the server")
                .hasMessageNotContaining(LocalPostgres.PASSWORD);
    }
}
