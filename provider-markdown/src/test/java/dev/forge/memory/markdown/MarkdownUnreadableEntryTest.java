package dev.forge.memory.markdown;

import dev.forge.memory.conformance.UnreadableEntryContract;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/**
 * A version file or document that cannot be read is reported; its key is never served from an older version, and no
 * write forks its chain: writes of the key are refused until the file is repaired or moved away.
 */
class MarkdownUnreadableEntryTest {

    /** The standard layout. */
    @Nested
    class Standard extends UnreadableEntryContract {
        @Override
        protected String providerName() {
            return "markdown";
        }

        @Override
        protected Map<String, Object> config(Path store) {
            return Map.of("path", store.resolve("memory").toString(), "fsync", false);
        }
    }

    /** The layered layout, with a key that has a document: the document and the version file are damaged in turn. */
    @Nested
    class Layered extends UnreadableEntryContract {
        @Override
        protected String providerName() {
            return "markdown";
        }

        @Override
        protected Map<String, Object> config(Path store) {
            return Map.of("path", store.resolve("memory").toString(), "fsync", false, "layout", "layered");
        }

        @Override
        protected String keyPrefix() {
            return "projects/app/";
        }

        @Override
        protected String reportName() {
            return "markdown-layered";
        }
    }

    /** The standard layout with a commit per write: a refused write commits nothing either. */
    @Nested
    class Git extends UnreadableEntryContract {
        @Override
        protected String providerName() {
            return "markdown";
        }

        @Override
        protected Map<String, Object> config(Path store) {
            return Map.of("path", store.resolve("memory").toString(), "fsync", false, "git", true);
        }

        @Override
        protected String reportName() {
            return "markdown-git";
        }
    }
}
