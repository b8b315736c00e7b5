package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.CrashKit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A process writing layered keys (the Forge plugin's paths) to the markdown provider is killed at random moments;
 * see {@link CrashKit}. Besides the kit's checks, the document of every present key holds its current value.
 */
class MarkdownLayeredCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return MarkdownMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of("path", "memory", "layout", "layered");
    }

    @Override
    protected String label() {
        return "markdown-layered";
    }

    /**
     * The layered layout writes a key's document before its version, and reads a document that differs from the head
     * as the next version with the head's tags and metadata: a kill in between shows the set in flight that way.
     */
    @Override
    protected boolean inFlightSetMayKeepEarlierTagsAndMetadata() {
        return true;
    }

    @Override
    protected List<String> projectKeys() {
        return List.of("skills/python-code-review/my-api/review_history", "projects/my-api/project_profile",
                "commands/my-api/command_history", "agents/hephaestus/forge_insights");
    }

    @Override
    protected void checkStore(MemoryProvider provider, Path base) {
        for (String key : projectKeys()) {
            Path document = base.resolve("memory").resolve(key + ".md");
            provider.get(key, Scope.PROJECT).map(MemoryEntry::value).ifPresent(value ->
                    assertThat(document).usingCharset(StandardCharsets.UTF_8).as("the document of %s", key).hasContent(value));
        }
    }
}
