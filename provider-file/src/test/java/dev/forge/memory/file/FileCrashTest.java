package dev.forge.memory.file;

import dev.forge.memory.conformance.CrashKit;
import java.util.Map;

/** A process writing to the file provider is killed at random moments; see {@link CrashKit}. */
class FileCrashTest extends CrashKit {

    @Override
    protected String providerName() {
        return FileMemoryProvider.NAME;
    }

    @Override
    protected Map<String, Object> config() {
        return Map.of();
    }
}
