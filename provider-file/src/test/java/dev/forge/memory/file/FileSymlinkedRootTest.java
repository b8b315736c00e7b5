package dev.forge.memory.file;

import dev.forge.memory.conformance.fuzz.SymlinkedStoreRootContract;
import java.nio.file.Path;
import java.util.Map;

/** A {@code base_path} that is a symbolic link: followed to a directory, refused otherwise. */
class FileSymlinkedRootTest extends SymlinkedStoreRootContract {

    @Override
    protected String providerName() {
        return "file";
    }

    @Override
    protected Map<String, Object> config(Path root) {
        return Map.of("base_path", root.toString(), "fsync", false);
    }
}
