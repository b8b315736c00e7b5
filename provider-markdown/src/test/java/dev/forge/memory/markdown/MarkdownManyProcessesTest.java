package dev.forge.memory.markdown;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.file.Path;
import java.util.Map;

/** Two child JVMs and this one, four threads each, writing one markdown directory: see {@link ManyProcessesKit}. */
class MarkdownManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "markdown";
    }

    @Override
    protected Map<String, String> config(Path store) {
        return Map.of("path", store.resolve("memory").toString());
    }
}
