package dev.forge.memory.file;

import dev.forge.memory.conformance.OwnerOnlyFiles;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.conformance.ValuesNotLogged;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file provider keeps memories private: everything it creates is owner-only (files 0600, directories 0700)
 * whatever the umask (here 022), and no value is logged at INFO or above.
 */
@Tag(Reliability.TAG)
class FileSecurityTest {

    @TempDir
    Path store;

    @Test
    void every_file_and_directory_of_the_store_is_private_to_its_owner() {
        OwnerOnlyFiles.assertAfterWrites(store, () -> Stores.open(store));
    }

    @Test
    void no_value_is_logged_at_info_or_above() {
        ValuesNotLogged.check(() -> Stores.open(store));
    }
}
