package dev.forge.memory.file;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.conformance.DiskFullScenario;
import dev.forge.memory.conformance.Reliability;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file provider on a real full disk (a small tmpfs; skipped where it cannot be mounted): see {@link DiskFullScenario}. */
@Tag(Reliability.TAG)
class FileDiskFullTest {

    @TempDir
    Path scratch;

    @Test
    void writes_on_a_full_disk_are_refused_with_nothing_lost_and_the_store_works_once_space_is_back() {
        assertThat(DiskFullScenario.run(scratch, 512, "file", root -> Stores.open(root))).isPositive();
    }
}
