package dev.forge.memory.hybrid;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.ProviderContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The whole conformance suite against sqlite storage, a vector search child and Neo4j as the relationships child, in
 * the soak form only ({@code bin/soak provider-hybrid-tests}); every build runs the contracts the relationships child takes
 * part in ({@link HybridSqliteVectorGraphConformanceTest}).
 */
@Tag("reliability")
@EnabledIfSystemProperty(named = Reliability.SOAK_PROPERTY, matches = "true")
class HybridSqliteVectorGraphWholeSuiteTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return HybridSqliteVectorGraphConformanceTest.openHybrid(context);
    }
}
