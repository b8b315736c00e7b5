package dev.forge.memory.file;

import dev.forge.memory.conformance.UnreadableEntryContract;
import dev.forge.memory.conformance.UnreadableEntryScenario.WriteRule;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/**
 * An entry file that cannot be read is skipped and reported, and never stops the rest of the store; a write of its key
 * moves it aside (the file provider keeps no chain a write could fork). Plain and gzip-compressed files.
 */
class FileUnreadableEntryTest {

    /** Plain JSON entry files. */
    @Nested
    class Plain extends UnreadableEntryContract {
        @Override
        protected String providerName() {
            return "file";
        }

        @Override
        protected Map<String, Object> config(Path store) {
            return Map.of("base_path", store.resolve("memory").toString(), "fsync", false);
        }

        @Override
        protected WriteRule writeRule() {
            return WriteRule.MOVES_ASIDE;
        }
    }

    /** Gzip-compressed entry files. */
    @Nested
    class Gzip extends UnreadableEntryContract {
        @Override
        protected String providerName() {
            return "file";
        }

        @Override
        protected Map<String, Object> config(Path store) {
            return Map.of("base_path", store.resolve("memory").toString(), "fsync", false, "compression", "gzip");
        }

        @Override
        protected WriteRule writeRule() {
            return WriteRule.MOVES_ASIDE;
        }

        @Override
        protected String reportName() {
            return "file-gzip";
        }
    }
}
