package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.fuzz.OnDiskFuzzContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;

/**
 * Damaged markdown files (front matter with alias bombs, {@code ---} fences, invalid UTF-8, cuts) get typed errors;
 * the other entries stay readable.
 */
class MarkdownOnDiskFuzzTest extends OnDiskFuzzContract {

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
