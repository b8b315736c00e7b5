package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RamTempDirsTest {

    @TempDir
    Path directory;

    @AfterEach
    void clearProperty() {
        System.clearProperty("forge.test.tmpdir");
    }

    @Test
    void the_system_property_names_the_directory_and_it_is_created() {
        Path wanted = directory.resolve("tests").resolve("here");
        System.setProperty("forge.test.tmpdir", wanted.toString());

        assertThat(RamTempDirs.root()).contains(wanted);
        assertThat(wanted).isDirectory();
    }

    @Test
    void an_empty_system_property_means_the_default_temporary_directory() {
        System.setProperty("forge.test.tmpdir", " ");

        assertThat(RamTempDirs.root()).isEmpty();
    }

    @Test
    void without_the_property_a_ram_directory_is_used_only_if_it_is_a_large_tmpfs() throws Exception {
        Optional<Path> root = RamTempDirs.root();

        Path shm = Path.of("/dev/shm");
        boolean large = Files.isDirectory(shm) && "tmpfs".equals(Files.getFileStore(shm).type())
                && Files.getFileStore(shm).getUsableSpace() >= (long) RamTempDirs.MIN_FREE_GIB << 30;
        assertThat(root.isPresent()).isEqualTo(large && Files.isWritable(shm));
        root.ifPresent(r -> assertThat(r).isEqualTo(shm.resolve("forge-memory-tests")).isWritable());
    }
}
