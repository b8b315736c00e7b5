package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The privacy of a file-backed provider's store, to extend with how to open the provider: everything it creates is
 * owner-only (files 0600, directories 0700, whatever the umask; see {@link OwnerOnlyFiles}), and no memory value is
 * logged at INFO or above (see {@link ValuesNotLogged}).
 */
@Tag(Reliability.TAG)
public abstract class StoreSecurityContract {

    /** The store directory of the test. */
    @TempDir
    protected Path store;

    /** Opens the provider on {@code store}; called more than once, each time on the same store. */
    protected abstract MemoryProvider open(Path store);

    /** Every file and directory under the store is private to its owner, while open and after close. */
    @Test
    void every_file_and_directory_of_the_store_is_private_to_its_owner() {
        OwnerOnlyFiles.assertAfterWrites(store, () -> open(store));
    }

    /** The provider's operations log no value at INFO or above. */
    @Test
    void no_value_is_logged_at_info_or_above() {
        ValuesNotLogged.check(() -> open(store));
    }
}
