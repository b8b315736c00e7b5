package dev.forge.memory.vector;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.SpiFuzzContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/** The SPI fuzz kit against the vector provider with the built-in {@code hashing} model. */
class VectorSpiFuzzTest extends SpiFuzzContract {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return new VectorMemoryProviderFactory().open(context.withConfig(
                ProviderConfig.of(Map.of("embedding", Map.of("model", "hashing")))));
    }

    /** 25: every vector write commits the Lucene index, about 100 ms on the build machine. */
    @Override
    protected int shortFormTries() {
        return 25;
    }

    @Override
    protected String providerName() {
        return "vector";
    }
}
