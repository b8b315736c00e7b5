package dev.forge.memory.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.sqlite.internal.NativeLibraryDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/**
 * sqlite-jdbc's native library goes to a directory of this user's alone ({@link NativeLibraryDirectory}), so that what
 * other users leave in a shared temporary directory neither makes it log errors nor gets deleted by it; a user's own
 * {@code org.sqlite.tmpdir} is kept. Each case starts a JVM of its own: the library is extracted once per JVM.
 */
class NativeLibraryDirectoryTest {

    @TempDir
    Path scratch;

    private record Child(int exit, String output) {

        List<String> values(String prefix) {
            return output.lines().filter(line -> line.startsWith(prefix + " ")).map(line -> line.substring(prefix.length() + 1))
                    .toList();
        }
    }

    private Child run(String... jvmOptions) throws IOException, InterruptedException {
        Path store = Files.createDirectories(scratch.resolve("store-" + System.nanoTime()));
        Process process = new ProcessBuilder(ChildJvm.command(List.of(jvmOptions), SqliteNativeLibraryChild.class,
                store.toString())).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the child ended").isTrue();
        return new Child(process.exitValue(), output);
    }

    private static Path staleDirectory(Path tmp) throws IOException {
        // what another local user can leave in a shared /tmp: sqlite-jdbc tries to delete it and cannot
        Path stale = Files.createDirectories(tmp.resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + "-"
                + "0000-stale-libsqlitejdbc.so"));
        Files.writeString(stale.resolve("left-by-someone-else"), "x");
        return stale;
    }

    @Test
    void a_stale_library_directory_in_the_temporary_directory_prints_no_error_and_is_left_alone() throws Exception {
        Path tmp = Files.createDirectories(scratch.resolve("tmp"));
        Path stale = staleDirectory(tmp);
        Child child = run("-Djava.io.tmpdir=" + tmp);

        assertThat(child.exit()).as("exit of the child, whose output was:%n%s", child.output()).isZero();
        assertThat(child.output()).as("the child's output").doesNotContain("ERROR").doesNotContain("Exception")
                .doesNotContain("\tat ");
        Path directory = Path.of(child.values("directory").get(0));
        assertThat(directory.getParent()).isEqualTo(tmp);
        assertThat(directory.getFileName().toString()).startsWith("forge-memory-sqlite-");
        assertThat(child.values("extracted")).as("the library, extracted into the private directory")
                .anyMatch(name -> name.startsWith("sqlite-" + SQLiteJDBCLoader.getVersion()));
        assertThat(stale.resolve("left-by-someone-else")).exists();
        if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS)))
                    .isEqualTo("rwx------");
            assertThat(Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName()).isEqualTo(System.getProperty("user.name"));
        }
    }

    @Test
    void without_the_private_directory_the_stale_directory_makes_sqlite_jdbc_log_an_error() throws Exception {
        // The reproduction of the issue, with the user's own choice of directory pointing at the shared one: what the
        // provider avoids by default, and what shows that the test above would see the error.
        Path tmp = Files.createDirectories(scratch.resolve("tmp"));
        staleDirectory(tmp);
        Child child = run("-Djava.io.tmpdir=" + tmp, "-D" + NativeLibraryDirectory.PROPERTY + "=" + tmp);

        assertThat(child.exit()).as("exit of the child, whose output was:%n%s", child.output()).isZero();
        assertThat(child.values("directory")).containsExactly(tmp.toString());
        assertThat(child.output()).contains("ERROR").contains("DirectoryNotEmptyException");
    }

    @Test
    void a_users_own_extraction_directory_is_kept() throws Exception {
        Path mine = Files.createDirectories(scratch.resolve("my-native-libraries"));
        Child child = run("-D" + NativeLibraryDirectory.PROPERTY + "=" + mine);

        assertThat(child.exit()).as("exit of the child, whose output was:%n%s", child.output()).isZero();
        assertThat(child.values("directory")).containsExactly(mine.toString());
        assertThat(child.values("extracted")).anyMatch(name -> name.startsWith("sqlite-" + SQLiteJDBCLoader.getVersion()));
    }

    @Test
    void a_directory_of_the_private_name_that_others_may_use_or_own_is_not_used() throws Exception {
        Path base = Files.createDirectories(scratch.resolve("shared"));
        String user = System.getProperty("user.name");
        Assumptions.assumeTrue(base.getFileSystem().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        Path stable = base.resolve("forge-memory-sqlite-" + user.replaceAll("[^A-Za-z0-9._-]", "_"));

        assertThat(NativeLibraryDirectory.privateDirectory(base, user)).contains(stable);
        assertThat(NativeLibraryDirectory.privateDirectory(base, user)).as("the same directory again").contains(stable);

        Files.setPosixFilePermissions(stable, PosixFilePermissions.fromString("rwxrwxrwx"));
        Optional<Path> instead = NativeLibraryDirectory.privateDirectory(base, user);
        assertThat(instead).isPresent().get().isNotEqualTo(stable);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(instead.get()))).isEqualTo("rwx------");

        Files.setPosixFilePermissions(stable, PosixFilePermissions.fromString("rwx------"));
        Optional<UserPrincipal> someoneElse = otherUser(stable);
        if (someoneElse.isPresent()) { // only root can give a directory away
            Files.setOwner(stable, someoneElse.get());
            assertThat(NativeLibraryDirectory.privateDirectory(base, user)).isPresent().get().isNotEqualTo(stable);
        }
        Files.delete(stable);
        Files.createSymbolicLink(stable, Files.createDirectories(scratch.resolve("elsewhere")));
        assertThat(NativeLibraryDirectory.privateDirectory(base, user)).as("a link of that name")
                .isPresent().get().isNotEqualTo(stable);
    }

    private static Optional<UserPrincipal> otherUser(Path file) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>(List.of("nobody", "daemon", "bin"));
        for (String name : candidates) {
            try {
                return Optional.of(file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(name));
            } catch (IOException e) {
                // try the next
            }
        }
        return Optional.empty();
    }
}
