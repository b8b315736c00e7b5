package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.CapabilityContract;
import dev.forge.memory.conformance.CoreContract;
import dev.forge.memory.conformance.DurabilityContract;
import dev.forge.memory.conformance.GraphContract;
import dev.forge.memory.conformance.HistoryContract;
import dev.forge.memory.conformance.RestoreContract;
import dev.forge.memory.conformance.ScopeContract;
import dev.forge.memory.conformance.TransactionContract;
import dev.forge.memory.conformance.TransferContract;
import dev.forge.memory.graph.TestNeo4j;
import dev.forge.memory.spi.ProviderContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Nested;

/**
 * The conformance contracts a relationships child takes part in, against sqlite storage, a vector search child
 * (hashing model) and Neo4j as the relationships child, on the shared test server of provider-graph's tests
 * (NEO4J_URI, Testcontainers, else neo4j-harness): every write, delete, clear, transaction, restore and import is
 * copied to the graph child, and relations and traversal are its. The contracts left out here (queries, keyword and
 * semantic search, reindex, concurrency, bad input, consolidation, lifecycle) are answered by the storage and search
 * children alone, the same sqlite and vector as {@link HybridSqliteVectorConformanceTest}, which runs them all;
 * {@link HybridSqliteVectorGraphWholeSuiteTest} runs the whole suite on this configuration in the soak form. Each
 * operation here is several Neo4j round trips: the whole suite took 7.5 of the build's 19 minutes.
 */
class HybridSqliteVectorGraphConformanceTest {

    static MemoryProvider openHybrid(ProviderContext context) {
        return HybridStores.provider(context, HybridStores.config(Map.of("provider", "sqlite"), HybridStores.vector(),
                graph(context), Map.of()));
    }

    /** The graph child on the shared server, in a store of its own per test directory. */
    static Map<String, Object> graph(ProviderContext context) {
        String store = UUID.nameUUIDFromBytes(context.baseDirectory().toString().getBytes(StandardCharsets.UTF_8)).toString();
        Map<String, Object> config = TestNeo4j.connection();
        config.put("provider", "graph");
        config.put("store", store);
        return config;
    }

    @Nested
    class Core extends CoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Scopes extends ScopeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Graph extends GraphContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Transactions extends TransactionContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class History extends HistoryContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Durability extends DurabilityContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Capabilities extends CapabilityContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Restore extends RestoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }

    @Nested
    class Transfer extends TransferContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openHybrid(context);
        }
    }
}
