package dev.forge.memory.markdown;

import dev.forge.memory.conformance.fuzz.SymlinkedStoreRootContract;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/** A memory directory ({@code path}) that is a symbolic link: followed to a directory, refused otherwise. */
class MarkdownSymlinkedRootTest {

    /** The standard layout. */
    @Nested
    class Standard extends SymlinkedStoreRootContract {
        @Override
        protected String providerName() {
            return "markdown";
        }

        @Override
        protected Map<String, Object> config(Path root) {
            return Map.of("path", root.toString(), "fsync", false);
        }
    }

    /** The layered layout, whose keys become paths of documents. */
    @Nested
    class Layered extends SymlinkedStoreRootContract {
        @Override
        protected String providerName() {
            return "markdown";
        }

        @Override
        protected Map<String, Object> config(Path root) {
            return Map.of("path", root.toString(), "fsync", false, "layout", "layered");
        }

        @Override
        protected String reportName() {
            return "markdown-layered";
        }
    }
}
