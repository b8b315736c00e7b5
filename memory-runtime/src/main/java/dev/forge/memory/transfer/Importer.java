package dev.forge.memory.transfer;

import dev.forge.memory.EntryRef;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryException;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.VersionHistory;
import dev.forge.memory.EntryRules;
import dev.forge.memory.transfer.internal.FileRecords;
import dev.forge.memory.transfer.internal.KeptRecords;
import dev.forge.memory.transfer.internal.KeyHashes;
import dev.forge.memory.transfer.internal.McpMemoryRecords;
import dev.forge.memory.transfer.internal.ProviderRecords;
import dev.forge.memory.transfer.internal.RecordSource;
import dev.forge.memory.transfer.internal.RecordVisitor;
import dev.forge.memory.transfer.internal.Records;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the portable format (or a live provider) into a provider, losing nothing the target can hold.
 *
 * <p>An import reads its input through twice, by streaming, so memory stays bounded whatever the size (an input that
 * fits in an eighth of the heap is parsed once and kept for the second pass): first to check
 * every record (JSON, header, keys, scopes, chains of versions against the target's limits and the bounds on versions
 * and times of {@link EntryRules#checkChain}, duplicate keys, relation ends that exist in neither the input nor the
 * target), then to write. If the check finds a problem, nothing is
 * written and a {@link TransferFileException} lists each problem with its location, unless
 * {@linkplain Builder#skipInvalid(boolean) skipInvalid} is set: then the invalid records are skipped and reported in
 * {@link ImportResult#invalid()}. Keys are restored in batches ({@link Builder#batch}), each one
 * {@link Restoring#restoreAll}: one transaction where the target has transactions. A backend failure while writing
 * stops the import part way, the batches before it imported; running it again is safe: importing the same input twice
 * leaves the target as after the first time. A scope the target held nothing of when the import began is written
 * without reading each key first (the conflict policy is applied against what the target held then).
 *
 * <p>Where the target has {@link dev.forge.memory.Capability#RESTORE}, entries keep their versions, timestamps and
 * (with {@link dev.forge.memory.Capability#HISTORY}) their earlier versions; otherwise they are written with
 * {@code set} and counted in {@link ImportResult#timestampsNotKept()}. Relations are made where the target has a
 * graph ({@link MemoryGraph#restore}, so that they keep the {@code created_at} read where the graph keeps relation
 * times, else counted in {@link ImportResult#relationTimesNotKept()}) and counted as dropped where it has none. An existing key is handled by the {@link ConflictPolicy}.
 *
 * <p>A deleted key's history (exported from a provider with {@link dev.forge.memory.Capability#TOMBSTONES}) is
 * restored and deleted again where the target keeps tombstones and can restore, and counted in
 * {@link ImportResult#deletedKeysDropped()} elsewhere. Fields a file leaves out (seed 004's export has no
 * {@code created_at} or {@code version}) are filled in and counted in {@link ImportResult#defaulted()}.
 *
 * <p>The official MCP memory server's {@code memory.jsonl} is told from its content too and read as
 * {@link McpMemoryFormat} says, into {@linkplain Builder#knowledgeGraphScope the knowledge graph's scope}. Unlike an
 * export, it is imported whatever invalid lines it holds (as with {@code skipInvalid}): the official server writes no
 * header or checksum and refuses the whole file for one bad line, so the valid lines are what a user can save. Each
 * skipped line is reported, and such an import is never {@linkplain ImportResult#lossless() lossless}.
 */
public final class Importer {

    private final ConflictPolicy policy;
    private final boolean skipInvalid;
    private final TransferProgress progress;
    private final int pageSize;
    private final int batchSize;
    private final long batchBytes;
    private final Duration progressInterval;
    private final Clock clock;
    private final Scope graphScope;

    private Importer(Builder builder) {
        this.clock = builder.clock;
        this.graphScope = builder.graphScope;
        this.policy = builder.policy;
        this.skipInvalid = builder.skipInvalid;
        this.progress = builder.progress;
        this.pageSize = builder.pageSize;
        this.batchSize = builder.batchSize;
        this.batchBytes = builder.batchBytes;
        this.progressInterval = builder.progressInterval;
    }

    /** A builder: {@link ConflictPolicy#OVERWRITE}, stop at the first invalid record, no progress reports. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Imports {@code file} into {@code target}, its format told from its content: a JSON document (forge-memory's, or
     * seed 004's export), JSON Lines, or the official MCP memory server's {@code memory.jsonl}.
     */
    public ImportResult importFile(Path file, MemoryProvider target) {
        if (McpMemoryRecords.detect(file)) {
            return run(new McpMemoryRecords(file, file.toString(), graphScope, clock.instant()), target);
        }
        return importFile(file, FileRecords.detect(file), target);
    }

    /** Imports {@code file} in {@code format} into {@code target}. */
    public ImportResult importFile(Path file, TransferFormat format, MemoryProvider target) {
        return run(new FileRecords(file, format, file.toString(), clock.instant()), target);
    }

    /** Imports a stream (standard input, say), its format told from its content; see {@link #importFile(Path, MemoryProvider)}. */
    public ImportResult importStream(InputStream in, MemoryProvider target) {
        return importStream(in, Optional.empty(), target);
    }

    /**
     * Imports a stream (standard input, say) in {@code format}: it is copied to a temporary file first, since an import
     * reads its input twice. The stream is read to its end and not closed.
     */
    public ImportResult importStream(InputStream in, TransferFormat format, MemoryProvider target) {
        return importStream(in, Optional.of(format), target);
    }

    private ImportResult importStream(InputStream in, Optional<TransferFormat> format, MemoryProvider target) {
        Path spool = null;
        try {
            spool = Files.createTempFile("forge-memory-import", ".spool");
            Files.copy(in, spool, StandardCopyOption.REPLACE_EXISTING);
            if (format.isEmpty() && McpMemoryRecords.detect(spool)) {
                return run(new McpMemoryRecords(spool, "the input stream", graphScope, clock.instant()), target);
            }
            return run(new FileRecords(spool, format.orElse(FileRecords.detect(spool)), "the input stream", clock.instant()), target);
        } catch (IOException e) {
            throw new StorageException("Cannot buffer the import stream in a temporary file: " + e.getMessage(), e);
        } finally {
            if (spool != null) {
                try {
                    Files.deleteIfExists(spool);
                } catch (IOException ignored) {
                    // A temporary file left behind is harmless.
                }
            }
        }
    }

    /**
     * Copies every entry (with its history) and relation of {@code scopes} of {@code source} into {@code target}
     * directly, as an export followed by an import would, with the same checks and report.
     */
    public ImportResult migrate(MemoryProvider source, Set<Scope> scopes, MemoryProvider target) {
        Objects.requireNonNull(source, "source");
        if (source == target) {
            throw new dev.forge.memory.InvalidRequestException("A migration needs two different providers.");
        }
        // Keys a store holds back (an unreadable file) are invisible to its reads: only its doctor tells of them.
        long sourceProblems = source.doctor().size();
        return run(new ProviderRecords(source, scopes.isEmpty() ? EnumSet.allOf(Scope.class) : scopes, pageSize), target,
                sourceProblems);
    }

    private ImportResult run(RecordSource source, MemoryProvider target) {
        return run(source, target, 0);
    }

    private ImportResult run(RecordSource source, MemoryProvider target, long sourceProblems) {
        Objects.requireNonNull(target, "target");
        long started = System.nanoTime();
        Check check = new Check(target);
        // An eighth of the heap for the parsed records: a small input is parsed once, a large one streams twice.
        RecordSource records = KeptRecords.read(source, check, Runtime.getRuntime().maxMemory() / 8);
        check.confirm(source);
        if (!check.problems.isEmpty() && !skipInvalid && !(source instanceof McpMemoryRecords)) {
            List<TransferProblem> listed = check.listed();
            throw new TransferFileException("Cannot import " + source.describe() + ": " + check.problemCount + " invalid record(s), first "
                    + FileRecords.clause(listed.get(0)) + ". Nothing was imported; fix the input, or skip invalid records and import the rest"
                    + " (--skip-invalid).", listed);
        }
        Write write = new Write(target, check.skip, check.records);
        progress.update("import", 0, check.records);
        // Entries first, then relations, whatever order the input has them in: a relation needs both its ends.
        records.read(write);
        write.flush();
        if (check.relations > 0) {
            write.relationsPass = true;
            records.read(write);
        }
        progress.update("import", check.records, check.records);
        return new ImportResult(target.name(), write.created, write.overwritten, write.unchanged, write.skipped,
                write.historyWritten, write.historyDropped, write.notRestored, write.relationsWritten,
                write.relationsDropped, write.relationTimesNotKept, write.deletedKept, write.deletedDropped, write.defaulted, check.listed(),
                check.problemCount, sourceProblems, Duration.ofNanos(System.nanoTime() - started));
    }

    /** The first pass: checks every record, remembering fingerprints instead of keys. */
    private final class Check implements RecordVisitor {
        private final MemoryProvider target;
        private final KeyHashes entries = new KeyHashes();
        private final List<long[]> relationEnds = new ArrayList<>();
        // The earliest problems in input order: later finds (duplicates, relation ends) may come before earlier ones.
        private final java.util.TreeMap<Long, TransferProblem> problems = new java.util.TreeMap<>();
        private final BitSet skip = new BitSet();
        private long problemCount;
        private long records;
        private long relations;

        Check(MemoryProvider target) {
            this.target = target;
        }

        @Override
        public void entry(long ordinal, String location, Records.Entry entry) {
            count();
            try {
                EntryRules.checkChain(entry.chain(), target.limits());
            } catch (MemoryException e) {
                problem(ordinal, location, e.getMessage());
                return;
            }
            entries.add(KeyHashes.of(entry.current().ref()));
        }

        @Override
        public void relation(long ordinal, String location, Records.Relation relation) {
            count();
            relations++;
            relationEnds.add(new long[] {KeyHashes.of(relation.from()), KeyHashes.of(relation.to()), ordinal});
        }

        @Override
        public void invalid(long ordinal, String location, String message) {
            count();
            problem(ordinal, location, message);
        }

        private final Ticker ticker = new Ticker(progress, "check", progressInterval);

        private void count() {
            records++;
            ticker.tick(records, -1);
        }

        void problem(long ordinal, String location, String message) {
            problemCount++;
            skip.set(Math.toIntExact(ordinal));
            problems.put(ordinal, new TransferProblem(location, message));
            if (problems.size() > TransferProblem.MAX_LISTED) {
                problems.pollLastEntry();
            }
        }

        List<TransferProblem> listed() {
            return List.copyOf(problems.values());
        }

        /** Confirms fingerprint hints on the real keys: duplicate keys, and relation ends missing from the input. */
        void confirm(RecordSource source) {
            KeyHashes repeated = entries.repeated();
            BitSet unresolved = new BitSet();
            for (long[] ends : relationEnds) {
                if (!entries.contains(ends[0]) || !entries.contains(ends[1])) {
                    unresolved.set(Math.toIntExact(ends[2]));
                }
            }
            relationEnds.clear();
            if (repeated.size() == 0 && unresolved.isEmpty()) {
                progress.update("check", records, records);
                return;
            }
            Map<EntryRef, String> firstSeen = new HashMap<>();
            source.read(new RecordVisitor() {
                @Override
                public void entry(long ordinal, String location, Records.Entry entry) {
                    EntryRef ref = entry.current().ref();
                    if (skip.get(Math.toIntExact(ordinal)) || !repeated.contains(KeyHashes.of(ref))) {
                        return;
                    }
                    String first = firstSeen.putIfAbsent(ref, location);
                    if (first != null) {
                        problem(ordinal, location, "duplicate key '" + ref.key() + "' in scope " + ref.scope().id()
                                + ": it is already at " + first);
                    }
                }

                @Override
                public void relation(long ordinal, String location, Records.Relation relation) {
                    if (!unresolved.get(Math.toIntExact(ordinal))) {
                        return;
                    }
                    for (EntryRef end : List.of(relation.from(), relation.to())) {
                        if (!entries.contains(KeyHashes.of(end)) && target.get(end.key(), end.scope()).isEmpty()) {
                            problem(ordinal, location, "relation " + relation.type() + " names " + end.scope().id() + ":"
                                    + end.key() + ", which is neither in the input nor in the target");
                            return;
                        }
                    }
                }

                @Override
                public void invalid(long ordinal, String location, String message) {
                    // Counted by the first pass.
                }
            });
            progress.update("check", records, records);
        }
    }

    /** The second pass: writes every record the check accepted. */
    private final class Write implements RecordVisitor {
        private final MemoryProvider target;
        private final BitSet skip;
        private final long total;
        private final Optional<Restoring> restoring;
        private final Optional<VersionHistory> history;
        private final Optional<MemoryGraph> graph;
        private final boolean tombstones;
        final Map<String, Long> defaulted = new java.util.TreeMap<>();
        long deletedKept;
        long deletedDropped;
        long created;
        long overwritten;
        long unchanged;
        long skipped;
        long historyWritten;
        long historyDropped;
        long notRestored;
        long relationsWritten;
        long relationsDropped;
        long relationTimesNotKept;
        /** False while entries are written, true while relations are: two reads, so relations find their ends. */
        boolean relationsPass;
        private long done;
        private final Ticker ticker = new Ticker(progress, "import", progressInterval);
        /** Chains waiting to be restored together, and their size in characters of values. */
        private final List<List<MemoryEntry>> batch = new ArrayList<>();
        private long batchChars;
        /** Scopes the target held no entry of when the import began: their keys are new, with no read to find out. */
        private final Set<Scope> emptyScopes = EnumSet.noneOf(Scope.class);

        Write(MemoryProvider target, BitSet skip, long total) {
            this.target = target;
            this.skip = skip;
            this.total = total;
            this.restoring = target.restoring();
            this.history = target.history();
            this.graph = target.graph();
            this.tombstones = target.capabilities().contains(dev.forge.memory.Capability.TOMBSTONES);
            for (Scope scope : Scope.values()) {
                if (target.query(dev.forge.memory.Query.builder().scopes(scope).limit(1).build()).isEmpty()) {
                    emptyScopes.add(scope);
                }
            }
        }

        /** Restores the waiting chains in one {@link Restoring#restoreAll}: one transaction where the target has them. */
        void flush() {
            if (!batch.isEmpty()) {
                restoring.orElseThrow().restoreAll(List.copyOf(batch));
                batch.clear();
                batchChars = 0;
            }
        }

        @Override
        public void entry(long ordinal, String location, Records.Entry entry) {
            if (relationsPass) {
                return;
            }
            tick();
            if (skip.get(Math.toIntExact(ordinal))) {
                return;
            }
            entry.defaulted().forEach(field -> defaulted.merge(field, 1L, Long::sum));
            MemoryEntry current = entry.current();
            // A key of a scope that was empty is new: the check refused (or skips) a key given twice.
            Optional<MemoryEntry> existing = emptyScopes.contains(current.scope()) ? Optional.empty()
                    : target.get(current.key(), current.scope());
            if (existing.isPresent() && (policy == ConflictPolicy.SKIP
                    || policy == ConflictPolicy.NEWER && !current.updatedAt().isAfter(existing.get().updatedAt()))) {
                skipped++;
                return;
            }
            // A record that says no time (a memory.jsonl entity) and holds what the target holds is the same memory:
            // rewriting it would only stamp it anew.
            if (existing.isPresent() && entry.history().isEmpty() && entry.defaulted().contains("updated_at")
                    && existing.get().sameContentAs(current)) {
                unchanged++;
                return;
            }
            if (entry.deleted()) {
                writeDeleted(entry, existing);
                return;
            }
            if (restoring.isPresent()) {
                List<MemoryEntry> chain = history.isPresent() ? entry.chain() : List.of(current);
                if (history.isEmpty()) {
                    historyDropped += entry.history().size();
                }
                if (existing.isPresent() && existing.get().equals(current)
                        && (history.isEmpty() || history.get().versions(current.key(), current.scope()).equals(chain))) {
                    unchanged++;
                    return;
                }
                batch.add(chain);
                batchChars += chain.stream().mapToLong(version -> version.value().length()).sum();
                if (batch.size() >= batchSize || batchChars * 2 >= batchBytes) {
                    flush();
                }
                if (history.isPresent()) {
                    historyWritten += entry.history().size();
                }
            } else {
                historyDropped += entry.history().size();
                if (existing.isPresent() && existing.get().sameContentAs(current)) {
                    unchanged++;
                    return;
                }
                target.set(current.key(), current.value(), current.scope(), current.tags(), current.metadata());
                notRestored++;
            }
            if (existing.isPresent()) {
                overwritten++;
            } else {
                created++;
            }
        }

        /** A deleted key: its versions restored, then deleted again, so that the target keeps them as the source did. */
        private void writeDeleted(Records.Entry entry, Optional<MemoryEntry> existing) {
            MemoryEntry last = entry.current();
            if (!tombstones || restoring.isEmpty() || history.isEmpty()) {
                deletedDropped++;
                return;
            }
            if (existing.isEmpty() && history.get().versions(last.key(), last.scope()).equals(entry.chain())) {
                deletedKept++;
                return;
            }
            flush();
            restoring.get().restore(entry.chain());
            target.delete(last.key(), last.scope());
            deletedKept++;
        }

        @Override
        public void relation(long ordinal, String location, Records.Relation relation) {
            if (!relationsPass) {
                return;
            }
            tick();
            if (skip.get(Math.toIntExact(ordinal))) {
                return;
            }
            if (graph.isEmpty()) {
                relationsDropped++;
                return;
            }
            if (relation.createdAt().isEmpty()) {
                graph.get().relate(relation.from(), relation.to(), relation.type());
            } else {
                dev.forge.memory.Relation wanted = new dev.forge.memory.Relation(relation.from(), relation.type(), relation.to(), relation.createdAt().get());
                if (!graph.get().restore(wanted).createdAt().equals(wanted.createdAt())) {
                    relationTimesNotKept++;
                }
            }
            relationsWritten++;
        }

        @Override
        public void invalid(long ordinal, String location, String message) {
            if (!relationsPass) {
                tick();
            }
        }

        private void tick() {
            done++;
            ticker.tick(done, total);
        }
    }

    /** Builds an {@link Importer}. */
    public static final class Builder {
        private ConflictPolicy policy = ConflictPolicy.OVERWRITE;
        private boolean skipInvalid;
        private TransferProgress progress = TransferProgress.NONE;
        private int pageSize = 2000;
        private int batchSize = 1000;
        private long batchBytes = 8L << 20;
        private Duration progressInterval = Ticker.INTERVAL;
        private Clock clock = Clock.systemUTC();
        private Scope graphScope = Scope.GLOBAL;

        private Builder() {
        }

        /**
         * The scope the entities and relations of a {@code memory.jsonl} go into: {@link Scope#GLOBAL} by default, as
         * {@code dev.forge.memory.knowledge.KnowledgeGraph} reads them (the official server keeps one graph per user).
         */
        public Builder knowledgeGraphScope(Scope scope) {
            this.graphScope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** The clock whose time a version gets when its file gives none (and no file-wide {@code timestamp}). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** What to do with keys the target already holds. */
        public Builder conflictPolicy(ConflictPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Whether to skip invalid records (and report each) instead of importing nothing. */
        public Builder skipInvalid(boolean skipInvalid) {
            this.skipInvalid = skipInvalid;
            return this;
        }

        /** Where progress is reported. */
        public Builder progress(TransferProgress progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        /** How many entries one query of a migration's source reads; at least 1. */
        public Builder pageSize(int pageSize) {
            if (pageSize < 1) {
                throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
            }
            this.pageSize = pageSize;
            return this;
        }

        /**
         * How many keys (at most {@code keys}, and about {@code bytes} of values) are restored together, in one
         * {@link Restoring#restoreAll}: 1,000 keys and 8 MB unless set. A backend failure leaves the batches before
         * the failing one imported.
         */
        public Builder batch(int keys, long bytes) {
            if (keys < 1 || bytes < 1) {
                throw new IllegalArgumentException("a batch holds at least 1 key and 1 byte, was " + keys + " and " + bytes);
            }
            this.batchSize = keys;
            this.batchBytes = bytes;
            return this;
        }

        /** How often progress is reported at least, besides every 1,000 records: every second unless set. */
        public Builder progressInterval(Duration interval) {
            this.progressInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** The importer. */
        public Importer build() {
            return new Importer(this);
        }
    }
}
