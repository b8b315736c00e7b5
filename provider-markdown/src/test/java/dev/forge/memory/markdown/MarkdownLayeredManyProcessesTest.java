package dev.forge.memory.markdown;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@link ManyProcessesKit} on the layered layout, every key a plugin document ({@code projects/many-processes/...}),
 * so that each write replaces a document as well as adding a version file. Smaller in the short form (one child JVM
 * and this one, two threads each; the standard layout's test has the full size), full size in the soak form.
 */
class MarkdownLayeredManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "markdown";
    }

    @Override
    protected String reportName() {
        return "markdown (layered)";
    }

    @Override
    protected Map<String, String> config(Path store) {
        return Map.of("path", store.resolve("memory").toString(), "layout", "layered");
    }

    @Override
    protected String keyPrefix() {
        return "projects/many-processes/";
    }

    @Override
    protected boolean reducedShortForm() {
        return true;
    }
}
