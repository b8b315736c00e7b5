package dev.forge.memory.file;

import dev.forge.memory.conformance.ManyProcessesKit;
import java.nio.file.Path;
import java.util.Map;

/** Two child JVMs and this one, four threads each, writing one file store: see {@link ManyProcessesKit}. */
class FileManyProcessesTest extends ManyProcessesKit {

    @Override
    protected String providerName() {
        return "file";
    }

    @Override
    protected Map<String, String> config(Path store) {
        return Map.of("base_path", store.toString());
    }
}
