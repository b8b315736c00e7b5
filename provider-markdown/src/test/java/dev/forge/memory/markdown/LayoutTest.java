package dev.forge.memory.markdown;

import static dev.forge.memory.markdown.Stores.context;
import static dev.forge.memory.markdown.Stores.memoryFiles;
import static dev.forge.memory.markdown.Stores.open;
import static dev.forge.memory.markdown.Stores.projectDirectory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.support.ByteSize;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the files go, what they are called, who may read them, and which configs are refused. */
class LayoutTest {

    private static final String FILE_NAME = "mem_[0-9a-f-]{36}\\.md";

    @TempDir
    Path base;

    private static Path onlyFile(Path directory) {
        List<Path> files = memoryFiles(directory);
        assertThat(files).as("memory files in %s", directory).hasSize(1);
        return files.get(0);
    }

    @Test
    void each_scope_has_its_directory_by_default() {
        try (MarkdownMemoryProvider provider = open(base)) {
            Path project = base.resolve(".forge/memory");
            Path session = project.resolve("session").resolve(Stores.SESSION);
            Path global = base.resolve("home/memory");
            assertThat(provider.projectDirectory()).isEqualTo(project);
            assertThat(provider.sessionDirectory()).isEqualTo(session);
            assertThat(provider.globalDirectory()).isEqualTo(global);

            provider.set("p", "project", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
            provider.set("g", "global", Scope.GLOBAL);

            assertThat(Stores.frontMatter(onlyFile(project))).containsEntry("key", "p").containsEntry("scope", "repo");
            assertThat(Stores.frontMatter(onlyFile(session))).containsEntry("key", "s").containsEntry("scope", "session");
            assertThat(Stores.frontMatter(onlyFile(global))).containsEntry("key", "g").containsEntry("scope", "user");
        }
    }

    @Test
    void global_path_puts_global_memories_there() {
        Path shared = base.resolve("shared-global");
        try (MarkdownMemoryProvider provider = open(base, new MarkdownConfig(null, shared.toString(), null, false))) {
            provider.set("g", "global", Scope.GLOBAL);
            assertThat(provider.globalDirectory()).isEqualTo(shared);
            assertThat(Stores.frontMatter(onlyFile(shared))).containsEntry("key", "g");
            assertThat(base.resolve("home")).doesNotExist();
        }
        // A relative global_path resolves against the base directory.
        try (MarkdownMemoryProvider provider = open(base, new MarkdownConfig(null, "shared-global", null, false))) {
            assertThat(provider.get("g", Scope.GLOBAL)).isPresent();
        }
    }

    @Test
    void path_puts_project_memories_there_and_project_in_it_is_the_project_id() {
        ProviderContext context = ProviderContext.builder().projectId("web-app").sessionId("s1").baseDirectory(base)
                .forgeHome(base.resolve("home")).build();
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(context,
                new MarkdownConfig("projects/{project}/memory", null, null, false))) {
            provider.set("p", "project", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
            Path project = base.resolve("projects/web-app/memory");
            assertThat(provider.projectDirectory()).isEqualTo(project);
            assertThat(Stores.frontMatter(onlyFile(project))).containsEntry("key", "p");
            assertThat(Stores.frontMatter(onlyFile(project.resolve("session/s1")))).containsEntry("key", "s");
            assertThat(base.resolve(".forge")).doesNotExist();
        }
    }

    @Test
    void without_project_in_path_the_directory_is_the_project_whatever_the_project_id() {
        ProviderContext alpha = context(base).toBuilder().projectId("alpha").build();
        ProviderContext beta = context(base).toBuilder().projectId("beta").build();
        try (MarkdownMemoryProvider a = MarkdownMemoryProvider.open(alpha, MarkdownConfig.defaults());
                MarkdownMemoryProvider b = MarkdownMemoryProvider.open(beta, MarkdownConfig.defaults())) {
            a.set("k", "from alpha", Scope.PROJECT);
            assertThat(b.get("k", Scope.PROJECT).map(MemoryEntry::value)).contains("from alpha");
        }
        MarkdownConfig perProject = new MarkdownConfig("projects/{project}", null, null, false);
        try (MarkdownMemoryProvider a = MarkdownMemoryProvider.open(alpha, perProject);
                MarkdownMemoryProvider b = MarkdownMemoryProvider.open(beta, perProject)) {
            a.set("k", "from alpha", Scope.PROJECT);
            assertThat(b.get("k", Scope.PROJECT)).isEmpty();
            // GLOBAL memories are shared either way.
            a.set("g", "shared", Scope.GLOBAL);
            assertThat(b.get("g", Scope.GLOBAL)).isPresent();
        }
    }

    @Test
    void project_ids_that_are_not_file_names_are_made_safe_in_path() {
        ProviderContext context = ProviderContext.builder().projectId("../Evil/x").sessionId("s1").baseDirectory(base)
                .forgeHome(base.resolve("home")).build();
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(context,
                new MarkdownConfig("projects/{project}", null, null, false))) {
            provider.set("p", "project", Scope.PROJECT);
            assertThat(provider.projectDirectory().getParent()).isEqualTo(base.resolve("projects"));
            assertThat(memoryFiles(provider.projectDirectory())).hasSize(1);
        }
    }

    @Test
    void a_memory_directory_reached_through_a_symbolic_link_is_read() throws IOException {
        // As a person keeping global memories in a dotfiles repository would set it up.
        Path real = Files.createDirectories(base.resolve("dotfiles/memory"));
        Path link = Files.createSymbolicLink(base.resolve("linked-memory"), real);
        MarkdownConfig config = new MarkdownConfig(null, link.toString(), null, false);
        try (MarkdownMemoryProvider provider = open(base, config)) {
            provider.set("g", "global", Scope.GLOBAL);
            assertThat(memoryFiles(real)).hasSize(1);
        }
        try (MarkdownMemoryProvider provider = open(base, config)) {
            assertThat(provider.get("g", Scope.GLOBAL).map(MemoryEntry::value)).contains("global");
            assertThat(provider.set("g", "global 2", Scope.GLOBAL).version()).isEqualTo(2);
        }
    }

    @Test
    void opening_and_reading_create_nothing() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.get("k", Scope.PROJECT)).isEmpty();
            assertThat(provider.get("k", Scope.SESSION)).isEmpty();
            assertThat(provider.get("k", Scope.GLOBAL)).isEmpty();
            assertThat(provider.query(Query.of("*"))).isEmpty();
            assertThat(provider.search(SearchRequest.keyword("anything"))).isEmpty();
            assertThat(provider.requireHistory().versions("k", Scope.PROJECT)).isEmpty();
            assertThat(provider.latestVersion("mem_" + UUID.randomUUID())).isEmpty();
            provider.refresh();
            assertThat(provider.doctor()).isEmpty();
        }
        try (Stream<Path> everything = Files.list(base)) {
            assertThat(everything.toList()).isEmpty();
        }
    }

    @Test
    void writes_that_change_nothing_create_nothing() throws IOException {
        try (MarkdownMemoryProvider provider = open(base)) {
            assertThat(provider.delete("k", Scope.PROJECT)).isFalse();
            assertThat(provider.delete("k", Scope.GLOBAL)).isFalse();
            assertThat(provider.clear(Scope.PROJECT)).isZero();
            assertThat(provider.requireHistory().purge("k", Scope.PROJECT)).isFalse();
            assertThat(provider.endSession()).isZero();
        }
        try (Stream<Path> everything = Files.list(base)) {
            assertThat(everything.toList()).isEmpty();
        }
    }

    @Test
    void the_first_write_creates_the_directory_its_lock_and_nothing_for_other_roots() {
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("p", "project", Scope.PROJECT);
            Path project = projectDirectory(base);
            assertThat(project.resolve(".lock")).isRegularFile();
            assertThat(project.resolve(".generation")).isRegularFile();
            assertThat(project.resolve("session")).doesNotExist();
            assertThat(base.resolve("home")).doesNotExist();

            provider.set("g", "global", Scope.GLOBAL);
            assertThat(base.resolve("home/memory/.lock")).isRegularFile();
        }
    }

    @Test
    void file_names_are_mem_and_a_version_8_uuid_that_starts_with_the_fingerprint_of_the_key() throws Exception {
        try (MarkdownMemoryProvider provider = open(base)) {
            for (int i = 0; i < 20; i++) {
                provider.set("k" + (i % 3), "v" + i, Scope.PROJECT);
            }
            List<Path> files = memoryFiles(provider.projectDirectory());
            assertThat(files).hasSize(20);
            for (Path file : files) {
                String name = file.getFileName().toString();
                assertThat(name).matches(FILE_NAME);
                UUID uuid = UUID.fromString(name.substring("mem_".length(), name.length() - ".md".length()));
                assertThat(uuid.version()).isEqualTo(8);
                assertThat(uuid.variant()).isEqualTo(2);
                assertThat(Stores.frontMatter(file)).containsEntry("id", Stores.id(file));
                // The first 32 bits: those of the SHA-256 of the key, so that an unreadable file still names its key.
                String key = (String) Stores.frontMatter(file).get("key");
                byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                        .digest(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertThat(name).startsWith("mem_" + java.util.HexFormat.of().formatHex(digest, 0, 4) + "-");
            }
        }
    }

    @Test
    void directories_are_0700_and_files_0600() throws IOException {
        assumeTrue(base.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("p", "project", Scope.PROJECT);
            provider.set("s", "session", Scope.SESSION);
            provider.set("g", "global", Scope.GLOBAL);
            provider.requireGraph().relate(EntryRef.of("p", Scope.PROJECT),
                    EntryRef.of("s", Scope.SESSION), "relates_to");
            provider.set("p", "project 2", Scope.PROJECT);

            Set<PosixFilePermission> directory = PosixFilePermissions.fromString("rwx------");
            Set<PosixFilePermission> file = PosixFilePermissions.fromString("rw-------");
            for (Path created : List.of(base.resolve(".forge"), provider.projectDirectory(),
                    provider.projectDirectory().resolve("session"), provider.sessionDirectory(), base.resolve("home"),
                    provider.globalDirectory())) {
                assertThat(Files.getPosixFilePermissions(created, LinkOption.NOFOLLOW_LINKS)).as("%s", created)
                        .isEqualTo(directory);
            }
            for (Path root : List.of(provider.projectDirectory(), provider.sessionDirectory(), provider.globalDirectory())) {
                try (Stream<Path> files = Files.list(root)) {
                    for (Path created : files.filter(Files::isRegularFile).toList()) {
                        assertThat(Files.getPosixFilePermissions(created, LinkOption.NOFOLLOW_LINKS)).as("%s", created)
                                .isEqualTo(file);
                    }
                }
            }
        }
    }

    @Test
    void the_base_directory_keeps_its_own_permissions() throws IOException {
        assumeTrue(base.getFileSystem().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
        Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (MarkdownMemoryProvider provider = open(base)) {
            provider.set("p", "project", Scope.PROJECT);
        }
        assertThat(Files.getPosixFilePermissions(base)).isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void a_project_directory_overlapping_the_global_one_is_refused() {
        // Run in the home directory: the project's .forge is the forge home itself.
        ProviderContext inHome = ProviderContext.builder().projectId("p").sessionId("s1").baseDirectory(base)
                .forgeHome(base.resolve(".forge")).build();
        assertThatThrownBy(() -> MarkdownMemoryProvider.open(inHome, MarkdownConfig.defaults()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("overlap");

        ProviderContext context = context(base);
        assertThatThrownBy(() -> MarkdownMemoryProvider.open(context, new MarkdownConfig("mem", "mem/global", null, null)))
                .isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> MarkdownMemoryProvider.open(context, new MarkdownConfig("mem/project", "mem", null, null)))
                .isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> MarkdownMemoryProvider.open(context, new MarkdownConfig("mem", "./mem/", null, null)))
                .isInstanceOf(ConfigurationException.class);
        // Siblings with a common name prefix do not overlap.
        try (MarkdownMemoryProvider provider = MarkdownMemoryProvider.open(context,
                new MarkdownConfig("mem", "mem-global", null, null))) {
            assertThat(provider.globalDirectory()).isEqualTo(base.resolve("mem-global"));
        }
        assertThat(base.resolve("mem")).doesNotExist();
    }

    @Test
    void the_factory_binds_the_config_and_rejects_unknown_keys() {
        MarkdownMemoryProviderFactory factory = new MarkdownMemoryProviderFactory();
        assertThat(factory.name()).isEqualTo("markdown");

        assertThatThrownBy(() -> factory.open(context(base).withConfig(ProviderConfig.of(Map.of("paht", "x")))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("paht").hasMessageContaining("path");

        try (MemoryProvider provider = factory.open(context(base).withConfig(ProviderConfig.of(Map.of(
                "path", "mine", "global_path", "theirs", "max_file_size", "1MB", "fsync", false))))) {
            provider.set("p", "project", Scope.PROJECT);
            provider.set("g", "global", Scope.GLOBAL);
        }
        assertThat(memoryFiles(base.resolve("mine"))).hasSize(1);
        assertThat(memoryFiles(base.resolve("theirs"))).hasSize(1);
    }

    @Test
    void a_max_file_size_below_64kb_is_refused() {
        MarkdownMemoryProviderFactory factory = new MarkdownMemoryProviderFactory();
        assertThatThrownBy(() -> factory.open(context(base).withConfig(ProviderConfig.of(Map.of("max_file_size", "1KB")))))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("max_file_size");
        assertThatThrownBy(() -> new MarkdownConfig(null, null, ByteSize.ofBytes(64 * 1024 - 1), null))
                .isInstanceOf(ConfigurationException.class);
        assertThat(new MarkdownConfig(null, null, ByteSize.ofBytes(64 * 1024), null).maxFileSize().bytes())
                .isEqualTo(64 * 1024);
        assertThatThrownBy(() -> factory.open(context(base).withConfig(ProviderConfig.of(Map.of("path", " ")))))
                .isInstanceOf(ConfigurationException.class);
        assertThat(base.resolve(".forge")).doesNotExist();
    }

    @Test
    void defaults_are_the_documented_ones() {
        MarkdownConfig defaults = MarkdownConfig.defaults();
        assertThat(defaults.path()).isEqualTo(".forge/memory");
        assertThat(defaults.globalPath()).isNull();
        assertThat(defaults.maxFileSize().bytes()).isEqualTo(8L * 1024 * 1024);
        assertThat(defaults.fsync()).isTrue();
        try (MemoryProvider provider = new MarkdownMemoryProviderFactory().open(context(base))) {
            assertThat(provider).isInstanceOf(MarkdownMemoryProvider.class);
            assertThat(((MarkdownMemoryProvider) provider).projectDirectory()).isEqualTo(projectDirectory(base));
            assertThat(((MarkdownMemoryProvider) provider).globalDirectory()).isEqualTo(base.resolve("home/memory"));
        }
    }
}
