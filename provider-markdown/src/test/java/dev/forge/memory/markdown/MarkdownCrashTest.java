package dev.forge.memory.markdown;

import dev.forge.memory.conformance.CrashKit;
import java.util.Map;

/** A process writing to the markdown provider (standard layout) is killed at random moments; see {@link CrashKit}. */
class MarkdownCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return MarkdownMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of();
    }
}
