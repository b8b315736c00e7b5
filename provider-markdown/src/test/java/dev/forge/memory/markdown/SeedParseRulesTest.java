package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other way round from {@link SeedFilesTest}: every file the provider writes parses with seed 000's own rules
 * ({@link SeedParse}, its {@code Parse} and {@code MemoryMeta} ported), and the fields mean there what they mean here.
 */
class SeedParseRulesTest {

    @TempDir
    Path base;

    @Test
    void the_port_reads_the_seed_000_schema_block_as_the_seed_describes() throws IOException {
        byte[] raw;
        try (InputStream in = getClass().getResourceAsStream("/seeds/000-schema.md")) {
            raw = in.readAllBytes();
        }
        SeedParse.MemoryMeta meta = SeedParse.parse(raw).meta();
        assertThat(meta.id()).isEqualTo("mem_<uuid>");
        assertThat(meta.createdAt()).isEqualTo(Instant.parse("2025-01-15T10:30:00Z"));
        assertThat(meta.version()).isEqualTo(1);
        assertThat(meta.scope()).isEqualTo("repo");
        assertThat(meta.supersedes()).isEmpty();
        assertThat(meta.related()).containsExactly(new SeedParse.RelatedMemory("mem_<uuid>", "refines"));
        assertThat(meta.trigger()).isEqualTo("cadence");
    }

    @Test
    void files_the_provider_writes_for_project_and_global_entries_parse_with_seed_000_rules() throws IOException {
        Map<String, Object> metadata = Map.of("category", "coding-preferences", "trigger", "cadence", "confidence", 0.9);
        List<MemoryEntry> project;
        MemoryEntry global;
        MemoryEntry other;
        try (MarkdownMemoryProvider provider = Stores.open(base)) {
            provider.set("style", "Prefer records.", Scope.PROJECT, List.of("java"), metadata);
            provider.set("style", "\nPrefer records;\nsealed types too.", Scope.PROJECT, List.of("java"), metadata);
            other = provider.set("records", "Records are final.", Scope.PROJECT);
            provider.requireGraph().relate(EntryRef.of("style", Scope.PROJECT), EntryRef.of("records", Scope.PROJECT),
                    "refines");
            project = provider.requireHistory().versions("style", Scope.PROJECT);
            global = provider.set("editor", "Uses vim.", Scope.GLOBAL, List.of(), Map.of("category", "user-facts"));
        }

        Map<String, SeedParse.MemoryFile> parsed = new HashMap<>();
        for (Path file : Stores.memoryFiles(Stores.projectDirectory(base))) {
            parsed.put(Stores.id(file), SeedParse.parse(Files.readAllBytes(file)));
        }
        List<SeedParse.MemoryFile> style = parsed.values().stream()
                .filter(f -> f.meta().category().equals("coding-preferences"))
                .sorted(java.util.Comparator.comparingInt(f -> f.meta().version())).toList();
        assertThat(style).hasSize(2);
        SeedParse.MemoryFile first = style.get(0);
        SeedParse.MemoryFile second = style.get(1);
        for (int i = 0; i < 2; i++) {
            SeedParse.MemoryMeta meta = style.get(i).meta();
            assertThat(meta.version()).isEqualTo(project.get(i).version());
            assertThat(meta.scope()).isEqualTo("repo");
            assertThat(meta.updatedAt()).isEqualTo(project.get(i).updatedAt());
            assertThat(meta.createdAt()).isEqualTo(project.get(i).createdAt());
            assertThat(meta.trigger()).isEqualTo("cadence");
            assertThat(meta.sessionId()).isEqualTo(Stores.SESSION);
            assertThat(parsed).containsKey(meta.id());
            // The body is the value and the one line break that ends the file.
            assertThat(style.get(i).content()).isEqualTo(project.get(i).value() + "\n");
        }
        assertThat(first.meta().supersedes()).isEmpty();
        assertThat(second.meta().supersedes()).contains(first.meta().id());
        SeedParse.MemoryFile target = parsed.values().stream()
                .filter(f -> f.content().equals(other.value() + "\n")).findFirst().orElseThrow();
        assertThat(second.meta().related())
                .containsExactly(new SeedParse.RelatedMemory(target.meta().id(), "refines"));

        List<Path> globals = Stores.memoryFiles(base.resolve("home").resolve("memory"));
        assertThat(globals).hasSize(1);
        SeedParse.MemoryFile user = SeedParse.parse(Files.readAllBytes(globals.get(0)));
        assertThat(user.meta().scope()).isEqualTo("user");
        assertThat(user.meta().category()).isEqualTo("user-facts");
        assertThat(user.meta().id()).isEqualTo(Stores.id(globals.get(0)));
        assertThat(user.meta().version()).isEqualTo(1);
        assertThat(user.meta().updatedAt()).isEqualTo(global.updatedAt());
        assertThat(user.meta().supersedes()).isEqualTo(Optional.empty());
        assertThat(user.content()).isEqualTo("Uses vim.\n");
    }
}
