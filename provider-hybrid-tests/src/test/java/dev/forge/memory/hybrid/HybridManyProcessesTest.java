package dev.forge.memory.hybrid;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@link ManyProcessesKit} on a router over {@code sqlite} storage with {@code sqlite} keyword search: what the
 * storage guarantees across processes holds through the router, and a process's cached copy of a key another
 * process wrote is dropped within {@code cache.ttl} (here 300 ms; the checks start a second after the last write). Reduced short form.
 */
class HybridManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "hybrid";
    }

    @Override
    protected Map<String, ?> config(Path store) {
        return Map.of("cache", Map.of("ttl", "300ms"),
                "storage", Map.of("provider", "sqlite", "path", store.resolve("memory.db").toString(), "busy_timeout", "60s"),
                "search", Map.of("provider", "sqlite", "path", store.resolve("search.db").toString(), "busy_timeout", "60s"));
    }

    @Override
    protected Duration settleTime() {
        return Duration.ofSeconds(1);
    }

    @Override
    protected boolean reducedShortForm() {
        return true;
    }
}
