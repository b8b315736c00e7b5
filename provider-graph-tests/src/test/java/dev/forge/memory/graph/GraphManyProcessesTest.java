package dev.forge.memory.graph;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * {@link ManyProcessesKit} on one store of the shared Neo4j test server: child JVMs and this one, each with its
 * own driver, writing the same keys (one child in the short form). The server serialises writes of one key (the provider locks the key's node), so
 * versions and history stay whole across processes.
 */
class GraphManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "graph";
    }

    @Override
    protected Map<String, ?> config(Path store) {
        Map<String, Object> config = TestNeo4j.connection();
        config.put("store", UUID.nameUUIDFromBytes(store.toString().getBytes(StandardCharsets.UTF_8)).toString());
        return config;
    }

    @Override
    protected boolean reducedShortForm() {
        return true;
    }
}
