package dev.forge.memory.sqlite;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import dev.forge.memory.sqlite.internal.NativeLibraryDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The child JVM of {@link NativeLibraryDirectoryTest}: opens the sqlite provider on the directory given as its
 * argument (the first use of sqlite-jdbc in this JVM, so the one that extracts its native library), writes and reads
 * an entry, then prints the extraction directory ({@code directory <path>}) and every entry in it while the library is
 * loaded ({@code extracted <name>}), and exits 0.
 */
public final class SqliteNativeLibraryChild {

    private SqliteNativeLibraryChild() {
    }

    /** Runs the child; see the class comment. */
    public static void main(String[] args) throws IOException {
        try (SqliteMemoryProvider provider = Stores.open(Path.of(args[0]))) {
            provider.set("k", "written by the child", Scope.PROJECT);
            if (!provider.get("k", Scope.PROJECT).map(MemoryEntry::value).orElse("").equals("written by the child")) {
                throw new IllegalStateException("the entry did not read back");
            }
        }
        Path directory = Path.of(System.getProperty(NativeLibraryDirectory.PROPERTY, System.getProperty("java.io.tmpdir")));
        System.out.println("directory " + directory);
        try (Stream<Path> entries = Files.list(directory)) {
            entries.forEach(entry -> System.out.println("extracted " + entry.getFileName()));
        }
    }
}
