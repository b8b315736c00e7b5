package dev.forge.memory.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.conformance.ProviderByName;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * For providers that keep a store in a directory: the configured store directory is a symbolic link. A link to a
 * directory is followed, and the store lives wholly under that directory: {@code Reliability.count("paths.links", 200,
 * 20000)} hostile path-like keys (and some plain ones) written through the link make no file anywhere else, each one
 * round-trips or is refused with {@link InvalidKeyException}, and the store reads the same through the link and through
 * the directory it leads to. A link that leads to no directory (nowhere, to itself, to a file) is refused: opening or
 * the first write fails with a {@link MemoryException} whose message says "{@code <link> is a symbolic link to
 * <target>}", and nothing is created where it points.
 */
@Tag(Reliability.TAG)
public abstract class SymlinkedStoreRootContract {

    /** Holds the link, the directory it leads to, and nothing else. */
    @TempDir
    protected Path work;

    /** The factory name of the provider under test, as {@link ProviderRegistry} finds it. */
    protected abstract String providerName();

    /** The provider's config block for a store in the directory {@code root} (here a link). */
    protected abstract Map<String, Object> config(Path root);

    /** The provider's name in the reliability figures; the factory name unless overridden. */
    protected String reportName() {
        return providerName();
    }

    /** What a link in place of the store directory leads to. */
    enum Target {
        /** A path that does not exist. */
        NOWHERE,
        /** The link itself (a loop). */
        ITSELF,
        /** A regular file. */
        A_FILE
    }

    private MemoryProvider open(Path root) {
        return ProviderByName.open(providerName(), config(root), "symlinked-root test", work, "linked", "linked-session");
    }

    @Test
    void a_store_directory_that_is_a_link_is_followed_and_nothing_is_written_outside_the_directory_it_leads_to()
            throws IOException {
        Path real = Files.createDirectory(work.resolve("real"));
        Path link = Files.createSymbolicLink(work.resolve("link"), real);
        long seed = FuzzInputs.seed();
        int attempts = Reliability.count("paths.links", 200, 20_000);
        List<String> keys = new ArrayList<>(List.of("plain", "with/slash", "../up", ".git/config", "deep/../../x",
                "projects/app/notes", "agents/helper/../../../x"));
        FuzzInputs.sample(FuzzInputs.pathLikeKeys(work.resolve("escaped").toString()), seed, attempts, keys::add);
        Map<String, String> stored = new LinkedHashMap<>();
        long refused = 0;
        try (MemoryProvider provider = open(link)) {
            for (String key : keys) {
                String value = "value " + stored.size();
                try {
                    assertThat(provider.set(key, value, Scope.PROJECT).key()).isEqualTo(key);
                    stored.put(key, value);
                } catch (InvalidKeyException e) {
                    refused++;
                } catch (RuntimeException | Error e) {
                    fail("key '" + key.replace("\u0000", "\\0") + "' threw " + e + " (seed " + seed + ")", e);
                }
            }
            provider.set("session-note", "in the session", Scope.SESSION);
        }
        assertThat(stored).as("most keys are valid and stored").hasSizeGreaterThan(keys.size() / 2);
        assertThat(Files.isSymbolicLink(link)).as("the link is left a link").isTrue();
        try (Stream<Path> walk = Files.walk(work)) {
            List<Path> outside = walk.filter(p -> !p.equals(work) && !p.equals(link) && !p.startsWith(real)).toList();
            assertThat(outside).as("files outside the directory the store's link leads to (seed " + seed + ")").isEmpty();
        }
        for (Path root : List.of(link, real)) {
            try (MemoryProvider provider = open(root)) {
                for (Map.Entry<String, String> entry : stored.entrySet()) {
                    assertThat(provider.get(entry.getKey(), Scope.PROJECT)).as("'" + entry.getKey() + "' through " + root)
                            .map(MemoryEntry::value).contains(entry.getValue());
                }
                assertThat(provider.query(Query.of("*", Scope.PROJECT))).as("a query through " + root)
                        .hasSize(stored.size());
                assertThat(provider.doctor()).as("doctor through " + root).isEmpty();
            }
        }
        Reliability.report("paths", reportName() + " through a linked store directory", "hostile keys tried", keys.size());
        Reliability.report("paths", reportName() + " through a linked store directory", "keys refused as invalid", refused);
    }

    @ParameterizedTest
    @EnumSource(Target.class)
    void a_store_directory_link_that_leads_to_no_directory_is_refused_naming_the_link(Target target) throws IOException {
        Path link = work.resolve("link");
        Path nowhere = work.resolve("missing").resolve("memory");
        Path file = work.resolve("a-file");
        switch (target) {
            case NOWHERE -> Files.createSymbolicLink(link, nowhere);
            case ITSELF -> Files.createSymbolicLink(link, link.getFileName());
            case A_FILE -> {
                Files.writeString(file, "not a directory");
                Files.createSymbolicLink(link, file);
            }
        }
        MemoryException refused = null;
        try (MemoryProvider provider = open(link)) {
            provider.set("key", "value", Scope.PROJECT);
        } catch (MemoryException e) {
            refused = e;
        }
        assertThat(refused).as("opening, or the first write, through a link to " + target).isNotNull();
        // It names the link and says that it is one, and where it leads.
        assertThat(refused.getMessage()).as("the refusal's message").contains(link.toString() + " is a symbolic link to ")
                .contains(switch (target) {
                    case NOWHERE -> nowhere.toString();
                    case ITSELF -> link.getFileName().toString();
                    case A_FILE -> file.toString();
                });
        assertThat(work.resolve("missing")).as("where the link points").doesNotExist();
        try (Stream<Path> walk = Files.walk(work)) {
            assertThat(walk.filter(p -> !p.equals(work) && !p.equals(link) && !p.equals(file)).toList())
                    .as("what was created besides the link").isEmpty();
        }
        if (target == Target.A_FILE) {
            assertThat(Files.readString(file)).isEqualTo("not a directory");
        }
        assertThat(Files.isSymbolicLink(link) && Files.exists(link, LinkOption.NOFOLLOW_LINKS)).isTrue();
    }
}
