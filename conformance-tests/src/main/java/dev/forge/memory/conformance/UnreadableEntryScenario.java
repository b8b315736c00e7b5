package dev.forge.memory.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.transfer.ExportResult;
import dev.forge.memory.transfer.Exporter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * The scenario of {@link UnreadableEntryContract} for one kind of {@link Damage}: a key is written twice, then each
 * file that holds its current version is damaged in turn, and the store is reopened and used.
 *
 * <p>It runs in the test's JVM, or, for {@link Damage#NO_READ_PERMISSION}, in a child JVM ({@link #main}) that
 * permissions apply to ({@link UnprivilegedJvm}); the child exits {@value UnprivilegedJvm#PERMISSIONS_NOT_ENFORCED}
 * when they turn out not to stop it from reading, so that the test is skipped rather than passed.
 */
public final class UnreadableEntryScenario {

    static final ObjectMapper JSON = new ObjectMapper();

    private static final String OLD_WORD = "oldword";
    private static final String NEW_WORD = "newword";

    /** How the file that holds a key's current version is made unreadable. */
    public enum Damage {
        /** A symbolic link to itself in its place: opening it fails with ELOOP, for root too. */
        SYMLINK_LOOP,
        /** A directory in its place. */
        DIRECTORY,
        /** Cut to its first 23 bytes, in the middle of a two-byte character where the file starts with the value. */
        TRUNCATED,
        /** Its first four bytes replaced by bytes that are not UTF-8 (and no byte order mark). */
        GARBLED,
        /** Its permissions set to {@code 000} (run where permissions stop the process: not root). */
        NO_READ_PERMISSION;

        void apply(Path file, byte[] original) throws IOException {
            switch (this) {
                case SYMLINK_LOOP -> {
                    Files.delete(file);
                    Files.createSymbolicLink(file, file.getFileName());
                }
                case DIRECTORY -> {
                    Files.delete(file);
                    Files.createDirectory(file);
                }
                case TRUNCATED -> Files.write(file, Arrays.copyOf(original, Math.min(23, original.length - 1)));
                case GARBLED -> {
                    byte[] garbled = original.clone();
                    byte[] junk = {(byte) 0xFF, (byte) 0xFF, 0, (byte) 0xC3};
                    System.arraycopy(junk, 0, garbled, 0, Math.min(junk.length, garbled.length));
                    Files.write(file, garbled);
                }
                case NO_READ_PERMISSION -> Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
            }
        }

        /** Puts the original file back: same content, mode {@code 0600}. */
        void repair(Path file, byte[] original) throws IOException {
            if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                try (Stream<Path> inside = Files.walk(file)) {
                    for (Path path : inside.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            } else if (Files.isSymbolicLink(file)) {
                Files.delete(file);
            }
            if (this == NO_READ_PERMISSION) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            Files.write(file, original);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
    }

    /** What a write to a key whose current file cannot be read does. */
    public enum WriteRule {
        /**
         * It is refused with {@link CorruptEntryException} naming the file, and changes nothing: for providers that
         * keep a chain of versions, which a write on top of an older version would fork.
         */
        REFUSED,
        /**
         * It moves the unreadable file aside (renamed inside the store, kept for a person to look at, listed by
         * {@code doctor()}) and stores the new value.
         */
        MOVES_ASIDE
    }

    /**
     * What to run.
     *
     * @param provider   the provider's factory name
     * @param config     its config block, as YAML would give it
     * @param keyPrefix  what every key starts with (a layered layout's document directory), or empty
     * @param damage     how the current file is damaged
     * @param rule       what a write over it must do
     * @param reportName the provider's name in the reliability figures
     */
    public record Plan(String provider, Map<String, Object> config, String keyPrefix, Damage damage, WriteRule rule,
            String reportName) {

        /** Copies the config. */
        public Plan {
            config = Map.copyOf(config);
        }
    }

    /** What one run checked, for the reliability figures. */
    public record Figures(int filesDamaged, int writesRefused, int writesMovedAside) {
    }

    private final Plan plan;
    private final Path store;
    private final Path aside;
    private final String victim;
    private final Map<String, MemoryEntry> others = new TreeMap<>();
    private MemoryProvider provider;
    private MemoryEntry first;
    private MemoryEntry acknowledged;
    private int refused;
    private int movedAside;

    private UnreadableEntryScenario(Plan plan, Path store, Path aside) {
        this.plan = plan;
        this.store = store;
        this.aside = aside;
        this.victim = plan.keyPrefix() + "victim";
    }

    /**
     * Runs the scenario on a new store in {@code store}; {@code aside} is a directory outside it, where a person
     * would move a damaged file.
     *
     * @throws PermissionsNotEnforced if {@link Damage#NO_READ_PERMISSION} leaves the file readable
     */
    public static Figures run(Plan plan, Path store, Path aside) throws IOException {
        UnreadableEntryScenario scenario = new UnreadableEntryScenario(plan, store, aside);
        try {
            return scenario.run();
        } finally {
            if (scenario.provider != null) {
                scenario.provider.close();
            }
        }
    }

    /** The file could still be read after its permissions were taken away: this process ignores them. */
    public static final class PermissionsNotEnforced extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PermissionsNotEnforced(Path file) {
            super("a file with mode 000 (" + file + ") can still be read by this process (root, or a process with "
                    + "CAP_DAC_OVERRIDE or CAP_DAC_READ_SEARCH), so an unreadable file cannot be made this way");
        }
    }

    /**
     * The child JVM: arguments are the store directory, the aside directory and the plan as JSON. Exits 0 when the
     * scenario passed, {@value UnprivilegedJvm#PERMISSIONS_NOT_ENFORCED} when permissions are not enforced, 1 with the
     * failure on standard error otherwise. The figures go to standard output as one JSON line.
     */
    public static void main(String[] args) {
        int code;
        try {
            Map<String, Object> fields = JSON.readValue(args[2], new TypeReference<Map<String, Object>>() {
            });
            @SuppressWarnings("unchecked")
            Plan plan = new Plan((String) fields.get("provider"), (Map<String, Object>) fields.get("config"),
                    (String) fields.get("keyPrefix"), Damage.valueOf((String) fields.get("damage")),
                    WriteRule.valueOf((String) fields.get("rule")), (String) fields.get("reportName"));
            Figures figures = run(plan, Path.of(args[0]), Path.of(args[1]));
            System.out.println(JSON.writeValueAsString(figures));
            code = 0;
        } catch (PermissionsNotEnforced e) {
            System.err.println(e.getMessage());
            code = UnprivilegedJvm.PERMISSIONS_NOT_ENFORCED;
        } catch (Throwable e) {
            e.printStackTrace();
            code = 1;
        }
        System.exit(code);
    }

    private Figures run() throws IOException {
        provider = open();
        others.put(plan.keyPrefix() + "steady-one", provider.set(plan.keyPrefix() + "steady-one", "alpha steady value",
                Scope.PROJECT, List.of("steady", "one"), Map.of("n", 1L)));
        others.put("plain-steady", provider.set("plain-steady", "bravo steady value\n---\nnot: front matter\n---\n",
                Scope.PROJECT, List.of("steady"), Map.of()));
        first = provider.set(victim, OLD_WORD + " first version of the victim", Scope.PROJECT, List.of("v1"),
                Map.of("round", 1L));
        Map<Path, byte[]> before = regularFiles();
        // Two-byte characters first: a layered document holds the value as it is, so a cut at an odd byte breaks it.
        String value = "\u00e9".repeat(12) + " " + NEW_WORD + " second version of the victim";
        acknowledged = provider.set(victim, value, Scope.PROJECT, List.of("v2"), Map.of("round", 2L));
        others.put(plan.keyPrefix() + "steady-two", provider.set(plan.keyPrefix() + "steady-two", "charlie steady value",
                Scope.PROJECT, List.of(), Map.of("k", "v")));
        MemoryEntry global = provider.set("global-steady", "delta steady value", Scope.GLOBAL, List.of("g"), Map.of());
        others.put("global-steady", global);
        List<Path> heads = new ArrayList<>();
        regularFiles().forEach((path, content) -> {
            if (!Arrays.equals(content, before.get(path)) && text(content).contains(NEW_WORD)) {
                heads.add(path);
            }
        });
        assertThat(heads).as("the files that hold the current version of '" + victim + "' (found by its value)")
                .isNotEmpty();
        heads.sort(null);
        for (Path head : heads) {
            byte[] original = Files.readAllBytes(head);
            damage(head, original);
            checkUnreadable(head);
            plan.damage().repair(head, original);
            reopen();
            checkRepaired();
            if (plan.rule() == WriteRule.REFUSED) {
                damage(head, original);
                checkWritesRefused(head);
                plan.damage().repair(head, original);
                reopen();
                checkRepaired();
            }
        }
        Path last = heads.get(heads.size() - 1);
        damage(last, Files.readAllBytes(last));
        if (plan.rule() == WriteRule.REFUSED) {
            Files.move(last, Files.createDirectories(aside).resolve("moved-by-hand"), LinkOption.NOFOLLOW_LINKS);
            reopen();
            checkWriteAfterMovedAside(false, last, null);
        } else {
            Object identity = identity(last);
            checkWriteAfterMovedAside(true, last, identity);
        }
        return new Figures(heads.size(), refused, movedAside);
    }

    private void damage(Path file, byte[] original) throws IOException {
        plan.damage().apply(file, original);
        if (plan.damage() == Damage.NO_READ_PERMISSION) {
            try (InputStream in = Files.newInputStream(file)) {
                in.read();
                throw new PermissionsNotEnforced(file);
            } catch (AccessDeniedException e) {
                // as it should be
            }
        }
        reopen();
    }

    /** (a) no older version served as current, (b) every other key usable, (c) doctor names the file. */
    private void checkUnreadable(Path file) {
        String name = file.getFileName().toString();
        String what = " with " + plan.damage() + " in place of " + file;
        assertThatThrownBy(() -> provider.get(victim, Scope.PROJECT)).as("get of '" + victim + "'" + what)
                .isInstanceOf(CorruptEntryException.class).hasMessageContaining(name);
        provider.history().ifPresent(history -> assertThatThrownBy(() -> history.versions(victim, Scope.PROJECT))
                .as("history of '" + victim + "'" + what).isInstanceOf(CorruptEntryException.class)
                .hasMessageContaining(name));
        checkOthers(what);
        assertThat(provider.search(SearchRequest.keyword(OLD_WORD))).as("search for the older version's word" + what)
                .noneMatch(hit -> hit.entry().key().equals(victim));
        List<StoreProblem> problems = provider.doctor();
        assertThat(problems).as("doctor" + what)
                .anyMatch(p -> p.location().contains(name) || p.problem().contains(name));
    }

    /** Every other key reads back exactly, and is listed, found and exported, while the victim is not. */
    private void checkOthers(String what) {
        checkOthers(what, List.of());
    }

    /** As {@link #checkOthers(String)}, with {@code victims} (the victim, once written again) listed too. */
    private void checkOthers(String what, List<MemoryEntry> victims) {
        for (MemoryEntry entry : others.values()) {
            assertThat(provider.get(entry.key(), entry.scope())).as("get of '" + entry.key() + "'" + what).contains(entry);
        }
        List<MemoryEntry> listed = new ArrayList<>(others.values());
        listed.addAll(victims);
        assertThat(provider.query(Query.builder().build())).as("a query of every scope" + what)
                .containsExactlyInAnyOrderElementsOf(listed);
        for (MemoryEntry entry : others.values()) {
            String word = entry.value().split(" ")[0];
            assertThat(provider.search(SearchRequest.keyword(word))).as("search for '" + word + "'" + what)
                    .anyMatch(hit -> hit.entry().equals(entry));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ExportResult result = Exporter.builder().build().export(provider, out);
        String exported = out.toString(StandardCharsets.UTF_8);
        assertThat(result.totalEntries()).as("entries exported" + what).isEqualTo(listed.size());
        assertThat(exported).as("the export" + what).contains("charlie steady value");
        if (victims.isEmpty()) {
            assertThat(exported).as("the export" + what).doesNotContain(OLD_WORD);
            // The export lacks the victim, so it must say so (its doctor names the file), never call itself lossless.
            assertThat(result.lossless()).as("the export" + what + " called lossless").isFalse();
            assertThat(result.sourceProblems().size() + result.unreadableCount()).as("what the export" + what
                    + " reports left out").isPositive();
        }
    }

    /** (e) with the file back, the acknowledged version is current again and nothing is reported. */
    private void checkRepaired() {
        String what = " after the file was repaired";
        assertThat(provider.get(victim, Scope.PROJECT)).as("get of '" + victim + "'" + what).contains(acknowledged);
        provider.history().ifPresent(history -> assertThat(history.versions(victim, Scope.PROJECT))
                .as("history of '" + victim + "'" + what).containsExactly(first, acknowledged));
        assertThat(provider.doctor()).as("doctor" + what).isEmpty();
        for (MemoryEntry entry : others.values()) {
            assertThat(provider.get(entry.key(), entry.scope())).as("get of '" + entry.key() + "'" + what).contains(entry);
        }
    }

    /** (d) writes to the key are refused, naming the file, and change no file of the store. */
    private void checkWritesRefused(Path file) throws IOException {
        String name = file.getFileName().toString();
        String what = " with " + plan.damage() + " in place of " + file;
        Map<String, String> before = snapshot();
        assertThatThrownBy(() -> provider.set(victim, "a third version", Scope.PROJECT))
                .as("set of '" + victim + "'" + what).isInstanceOf(CorruptEntryException.class).hasMessageContaining(name);
        assertThatThrownBy(() -> provider.delete(victim, Scope.PROJECT))
                .as("delete of '" + victim + "'" + what).isInstanceOf(CorruptEntryException.class).hasMessageContaining(name);
        refused += 2;
        assertThat(snapshot()).as("the store's files after the refused writes" + what).isEqualTo(before);
        checkUnreadable(file);
    }

    /**
     * Once the file is out of the way (moved by hand, or by the write itself), a write of the key works and every
     * other key is as it was; a file the write moved aside is kept in the store and reported.
     */
    private void checkWriteAfterMovedAside(boolean byTheWrite, Path file, Object identity) throws IOException {
        String what = byTheWrite ? " over " + plan.damage() + " in place of " + file : " after " + file + " was moved away";
        MemoryEntry third = provider.set(victim, "a third version", Scope.PROJECT, List.of("v3"), Map.of());
        assertThat(provider.get(victim, Scope.PROJECT)).as("get of '" + victim + "'" + what).contains(third);
        checkOthers(what, List.of(third));
        if (byTheWrite) {
            movedAside++;
            Path kept = find(identity);
            assertThat(kept).as("the damaged file, kept somewhere in the store" + what).isNotNull();
            assertThat(kept).as("the damaged file's place" + what).isNotEqualTo(file);
            String keptName = kept.getFileName().toString();
            assertThat(provider.doctor()).as("doctor" + what)
                    .anyMatch(p -> p.location().contains(keptName) || p.problem().contains(keptName));
        } else {
            assertThat(provider.doctor()).as("doctor" + what).isEmpty();
        }
        reopen();
        assertThat(provider.get(victim, Scope.PROJECT)).as("get of '" + victim + "' after a reopen" + what).contains(third);
        checkOthers(what + ", reopened", List.of(third));
    }

    /** The file system's identity of a path (its inode), not following links. */
    private static Object identity(Path path) throws IOException {
        Object key = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        return Objects.requireNonNull(key, "this file system has no file keys");
    }

    private Path find(Object identity) throws IOException {
        try (Stream<Path> walk = Files.walk(store)) {
            for (Path path : walk.toList()) {
                if (identity.equals(Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey())) {
                    return path;
                }
            }
        }
        return null;
    }

    /** A file's content as text, gunzipped if it is gzip data. */
    private static String text(byte[] content) {
        if (content.length > 2 && content[0] == (byte) 0x1f && content[1] == (byte) 0x8b) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(content))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new String(content, StandardCharsets.UTF_8);
    }

    private MemoryProvider open() {
        return ProviderByName.open(plan.provider(), plan.config(), "unreadable-entry plan", store, "unreadable",
                "unreadable-session");
    }

    private void reopen() {
        provider.close();
        provider = null;
        provider = open();
    }

    private Map<Path, byte[]> regularFiles() throws IOException {
        Map<Path, byte[]> files = new HashMap<>();
        try (Stream<Path> walk = Files.walk(store)) {
            for (Path path : walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).toList()) {
                files.put(path, Files.readAllBytes(path));
            }
        }
        return files;
    }

    /** Every path under the store with what it is: a file's content, a link's target, a directory, an unreadable file. */
    private Map<String, String> snapshot() throws IOException {
        Map<String, String> snapshot = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(store)) {
            for (Path path : walk.toList()) {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                String what;
                if (attributes.isSymbolicLink()) {
                    what = "link to " + Files.readSymbolicLink(path);
                } else if (attributes.isDirectory()) {
                    what = "directory";
                } else {
                    try {
                        what = "file " + Arrays.hashCode(Files.readAllBytes(path)) + " of " + attributes.size() + " bytes";
                    } catch (IOException e) {
                        what = "unreadable file of " + attributes.size() + " bytes, modified " + attributes.lastModifiedTime();
                    }
                }
                snapshot.put(store.relativize(path).toString(), what);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return snapshot;
    }
}
