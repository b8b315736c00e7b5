package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.support.ByteSize;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Memory files a person broke: each is skipped with the others still readable, listed by {@code doctor()} with its
 * path and a reason, and read again once fixed.
 */
class CorruptFileTest {

    /** Small enough for a test, the least the config allows. */
    private static final ByteSize MAX_FILE_SIZE = ByteSize.ofBytes(64 * 1024);

    @TempDir
    Path base;

    private Path directory;

    /** One kind of damage: a file name and what is in it. */
    record Damage(String description, String fileName, byte[] content) {
        @Override
        public String toString() {
            return description;
        }
    }

    private static String name() {
        return "mem_" + UUID.randomUUID() + ".md";
    }

    private static Damage damage(String description, String text) {
        return new Damage(description, name(), text.getBytes(StandardCharsets.UTF_8));
    }

    static Stream<Damage> damages() {
        String otherId = "mem_" + UUID.randomUUID();
        ByteArrayOutputStream latin1 = new ByteArrayOutputStream();
        latin1.writeBytes("---\nkey: caf\u00e9\n---\n".getBytes(StandardCharsets.ISO_8859_1));
        latin1.writeBytes("Saved as Latin-1: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        String huge = "---\nkey: huge\n---\n" + "x".repeat((int) MAX_FILE_SIZE.bytes()) + "\n";
        return Stream.of(
                damage("missing opening delimiter", "key: no-start\n---\nbody\n"),
                damage("unclosed front-matter", "---\nkey: no-end\nbody without an end\n"),
                damage("invalid YAML", "---\nkey: [bad-yaml\n---\nbody\n"),
                damage("empty key", "---\nkey: \"\"\nversion: 1\n---\nbody\n"),
                damage("wrong type", "---\nkey: wrong-type\nversion: many\n---\nbody\n"),
                damage("id and file name differ", "---\nid: " + otherId + "\nkey: mismatch\n---\nbody\n"),
                new Damage("not UTF-8", name(), latin1.toByteArray()),
                damage("larger than max_file_size", huge));
    }

    private MarkdownMemoryProvider openProvider() {
        return open(base, new MarkdownConfig(null, null, MAX_FILE_SIZE, false));
    }

    @BeforeEach
    void storeAGoodMemory() {
        try (MarkdownMemoryProvider provider = openProvider()) {
            provider.set("good", "a healthy memory about parsing", Scope.PROJECT);
            directory = provider.projectDirectory();
        }
        assertThat(directory).isEqualTo(projectDirectory(base));
    }

    private void assertTheGoodMemoryIsReadable(MarkdownMemoryProvider provider) {
        assertThat(provider.get("good", Scope.PROJECT).map(MemoryEntry::value)).contains("a healthy memory about parsing");
        assertThat(provider.query(Query.of("*", Scope.PROJECT))).extracting(MemoryEntry::key).containsExactly("good");
        assertThat(provider.search(SearchRequest.keyword("parsing"))).extracting(h -> h.entry().key())
                .containsExactly("good");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damages")
    void a_broken_file_is_skipped_reported_by_doctor_and_read_once_fixed(Damage damage) throws IOException {
        Path broken = directory.resolve(damage.fileName());
        Files.write(broken, damage.content());

        try (MarkdownMemoryProvider provider = openProvider()) {
            assertTheGoodMemoryIsReadable(provider);
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).as("doctor after: %s", damage).hasSize(1);
            assertThat(problems.get(0).location()).isEqualTo(broken.toString());
            assertThat(problems.get(0).problem()).isNotBlank();

            Files.writeString(broken, "---\nkey: fixed\n---\nfixed by hand\n", StandardCharsets.UTF_8);
            provider.refresh();

            assertThat(provider.get("fixed", Scope.PROJECT).map(MemoryEntry::value)).contains("fixed by hand");
            assertThat(provider.doctor()).isEmpty();
        }
        // The broken file was never rewritten, moved or removed by the provider: only the person's fix is there.
        assertThat(Files.readString(broken)).isEqualTo("---\nkey: fixed\n---\nfixed by hand\n");
    }

    @Test
    void every_broken_file_is_listed_once_with_its_path_and_the_file_is_left_as_it_was() throws IOException {
        Map<Path, Damage> written = new LinkedHashMap<>();
        damages().forEach(damage -> {
            Path file = directory.resolve(damage.fileName());
            written.put(file, damage);
        });
        for (Map.Entry<Path, Damage> entry : written.entrySet()) {
            Files.write(entry.getKey(), entry.getValue().content());
        }

        try (MarkdownMemoryProvider provider = openProvider()) {
            assertTheGoodMemoryIsReadable(provider);
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).extracting(StoreProblem::location)
                    .containsExactlyInAnyOrderElementsOf(written.keySet().stream().map(Path::toString).toList());
            assertThat(problems).allSatisfy(problem -> assertThat(problem.problem()).isNotBlank());
            // A write goes on around the broken files.
            provider.set("good", "still writable", Scope.PROJECT);
            assertThat(provider.get("good", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
        }
        for (Map.Entry<Path, Damage> entry : written.entrySet()) {
            assertThat(Files.readAllBytes(entry.getKey())).as("%s", entry.getValue()).isEqualTo(entry.getValue().content());
        }
    }

    @Test
    void doctor_says_what_is_wrong_without_quoting_the_value() throws IOException {
        Path tooLarge = directory.resolve(name());
        Files.writeString(tooLarge, "---\nkey: huge\n---\n" + "secret ".repeat(20_000) + "\n");
        Path wrongType = directory.resolve(name());
        Files.writeString(wrongType, "---\nkey: typed\nversion: many\nmetadata:\n  token: hunter2\n---\nsecret body\n");
        Path mismatch = directory.resolve(name());
        Files.writeString(mismatch, "---\nid: mem_" + UUID.randomUUID() + "\nkey: mismatch\n---\nsecret body\n");

        try (MarkdownMemoryProvider provider = openProvider()) {
            Map<String, String> problems = new LinkedHashMap<>();
            provider.doctor().forEach(p -> problems.put(p.location(), p.problem()));
            assertThat(problems.get(tooLarge.toString())).containsIgnoringCase("max_file_size");
            assertThat(problems.get(wrongType.toString())).contains("version");
            assertThat(problems.get(mismatch.toString())).contains("file name");
            assertThat(String.join("\n", problems.values())).doesNotContain("secret").doesNotContain("hunter2");
        }
    }

    @Test
    void a_file_broken_while_open_keeps_its_key_unread_and_unwritten_and_the_others_in() throws IOException {
        try (MarkdownMemoryProvider provider = openProvider()) {
            provider.set("fragile", "will break", Scope.PROJECT);
            Path file = Stores.fileOf(directory, "fragile", 1);

            Stores.saveByRename(file, "no front-matter at all\n");

            // Its only version cannot be read: the key is neither shown as absent nor written anew beside it.
            assertThatThrownBy(() -> provider.get("fragile", Scope.PROJECT)).isInstanceOf(CorruptEntryException.class)
                    .hasMessageContaining(file.toString());
            assertThatThrownBy(() -> provider.set("fragile", "a second first version", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class).hasMessageContaining(file.toString());
            assertTheGoodMemoryIsReadable(provider);
            assertThat(provider.doctor()).extracting(StoreProblem::location).containsExactly(file.toString());
            assertThat(provider.doctor().get(0).problem()).contains("newest version").contains("not written to");
        }
    }

    @Test
    void an_unreadable_newest_version_is_never_forked_and_doctor_names_its_key() throws IOException {
        MemoryEntry first;
        MemoryEntry second;
        try (MarkdownMemoryProvider provider = openProvider()) {
            first = provider.set("fork-me", "first", Scope.PROJECT);
            second = provider.set("fork-me", "second", Scope.PROJECT);
        }
        Path head = Stores.fileOf(directory, "fork-me", 2);
        String saved = Files.readString(head);
        Files.writeString(head, saved.substring(0, 20)); // cut short, as by a crash without fsync
        try (MarkdownMemoryProvider provider = openProvider()) {
            assertThatThrownBy(() -> provider.set("fork-me", "third", Scope.PROJECT))
                    .isInstanceOf(CorruptEntryException.class).hasMessageContaining(head.toString());
            assertThat(provider.doctor()).singleElement().satisfies(problem -> {
                assertThat(problem.location()).isEqualTo(head.toString());
                assertThat(problem.problem()).contains("newest version of key 'fork-me'");
            });
            Files.writeString(head, saved);
            // The same provider sees the repair at the next read of the key, with no refresh.
            assertThat(provider.get("fork-me", Scope.PROJECT)).contains(second);
            assertThat(provider.requireHistory().versions("fork-me", Scope.PROJECT)).containsExactly(first, second);
            assertThat(provider.set("fork-me", "third", Scope.PROJECT).version()).isEqualTo(3);
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void open_does_not_fail_on_a_directory_of_only_broken_files() throws IOException {
        Files.delete(Stores.fileOf(directory, "good", 1));
        for (Damage damage : damages().toList()) {
            Files.write(directory.resolve(damage.fileName()), damage.content());
        }
        try (MarkdownMemoryProvider provider = openProvider()) {
            assertThat(provider.query(Query.of("*"))).isEmpty();
            assertThat(provider.doctor()).hasSize(8);
        }
    }

    @Test
    void get_of_a_missing_key_is_empty_not_an_error() {
        try (MarkdownMemoryProvider provider = openProvider()) {
            assertThat(provider.get("never-written", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("never-written", Scope.SESSION)).isEmpty();
            assertThat(provider.get("never-written", Scope.GLOBAL)).isEmpty();
            assertThat(provider.requireHistory().versions("never-written", Scope.PROJECT)).isEmpty();
        }
    }

    @Test
    void a_memory_directory_replaced_by_a_file_fails_calls_instead_of_looking_empty() throws IOException {
        try (MarkdownMemoryProvider provider = openProvider()) {
            assertThat(provider.get("good", Scope.PROJECT)).isPresent();

            replaceDirectoryByFile();

            assertThatThrownBy(() -> provider.get("good", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
            assertThatThrownBy(() -> provider.get("other", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
            assertThatThrownBy(() -> provider.query(Query.of("*"))).isInstanceOf(BackendUnavailableException.class);
            assertThatThrownBy(() -> provider.search(SearchRequest.keyword("parsing")))
                    .isInstanceOf(BackendUnavailableException.class);
            assertThatThrownBy(() -> provider.set("new", "v", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
            assertThatThrownBy(provider::refresh).isInstanceOf(BackendUnavailableException.class);
        }
    }

    @Test
    void the_markdown_operations_of_a_closed_provider_fail() {
        MarkdownMemoryProvider provider = openProvider();
        String id = Stores.id(Stores.fileOf(directory, "good", 1));
        provider.close();
        assertThatThrownBy(provider::refresh).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.latestVersion(id)).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(provider::doctor).isInstanceOf(BackendUnavailableException.class);
    }

    @Test
    void open_fails_when_the_memory_directory_is_a_file() throws IOException {
        replaceDirectoryByFile();
        assertThatThrownBy(this::openProvider).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(directory.toString());
    }

    private void replaceDirectoryByFile() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
        Files.writeString(directory, "not a directory");
    }
}
