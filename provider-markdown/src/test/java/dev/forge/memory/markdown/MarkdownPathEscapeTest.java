package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.PathEscapeContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/**
 * Hostile keys never leave the markdown provider's store directory, in the standard layout and in the layered one
 * (whose keys map to paths). Without fsync: the check is about names.
 */
class MarkdownPathEscapeTest {

    /** The standard layout: one file a key. */
    @Nested
    class Standard extends PathEscapeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return new MarkdownMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(
                    Map.of("path", "projects/{project}/memory", "fsync", false))));
        }

        @Override
        protected String providerName() {
            return "markdown";
        }
    }

    /** The layered layout: keys such as {@code docs/a/b} become paths. */
    @Nested
    class Layered extends PathEscapeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return new MarkdownMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(
                    Map.of("path", "projects/{project}/memory", "layout", "layered", "fsync", false))));
        }

        @Override
        protected String providerName() {
            return "markdown-layered";
        }
    }
}
