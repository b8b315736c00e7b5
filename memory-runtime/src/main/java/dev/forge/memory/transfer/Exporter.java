package dev.forge.memory.transfer;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.transfer.internal.ExportWriter;
import dev.forge.memory.transfer.internal.ProviderRecords;
import dev.forge.memory.transfer.internal.RecordVisitor;
import dev.forge.memory.transfer.internal.Records;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Writes what a provider holds in the portable format, by streaming: entries are read a page at a time, so a store
 * of any size exports in bounded memory. Each entry carries its earlier versions where the provider keeps
 * {@linkplain dev.forge.memory.Capability#HISTORY history}, and deleted keys come with their versions
 * ({@code "deleted": true}) where it keeps {@linkplain dev.forge.memory.Capability#TOMBSTONES tombstones}; relations
 * follow where it has a
 * {@linkplain dev.forge.memory.Capability#GRAPH graph}. The output is deterministic for a given store (key order
 * within each scope), apart from {@code exported_at}.
 *
 * <p>An export loses nothing silently: a stored entry the provider cannot read (a damaged row) is left out and named in
 * {@link ExportResult#unreadable()}, and a provider whose reads cannot name such entries is asked for its
 * {@code doctor()} problems first ({@link ExportResult#sourceProblems()}); either makes the export not
 * {@linkplain ExportResult#lossless() lossless}.
 *
 * <pre>{@code
 * try (OutputStream out = Files.newOutputStream(file)) {
 *     ExportResult result = Exporter.builder().format(TransferFormat.JSONL).project("my-app").build().export(provider, out);
 * }
 * }</pre>
 */
public final class Exporter {

    private final TransferFormat format;
    private final Set<Scope> scopes;
    private final Optional<String> project;
    private final Clock clock;
    private final int pageSize;
    private final TransferProgress progress;

    private Exporter(Builder builder) {
        this.format = builder.format;
        this.scopes = Set.copyOf(builder.scopes);
        this.project = builder.project;
        this.clock = builder.clock;
        this.pageSize = builder.pageSize;
        this.progress = builder.progress;
    }

    /** A builder: JSON, every scope, no project named, the system clock, no progress reports. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Exports {@code provider} to {@code out}, which is flushed and left open.
     *
     * @throws StorageException if {@code out} cannot be written
     */
    public ExportResult export(MemoryProvider provider, OutputStream out) {
        Objects.requireNonNull(out, "out");
        return export(provider, () -> new ExportWriter(out, format, clock.instant(), project));
    }

    /**
     * Exports {@code provider} to {@code out}, which is flushed and left open.
     *
     * @throws StorageException if {@code out} cannot be written
     */
    public ExportResult export(MemoryProvider provider, java.io.Writer out) {
        Objects.requireNonNull(out, "out");
        return export(provider, () -> new ExportWriter(out, format, clock.instant(), project));
    }

    /**
     * Exports {@code provider} to {@code file}, written under a temporary name in the same directory and renamed over
     * {@code file} when complete, so that the file is never left half-written (a failed export leaves what was there).
     *
     * @throws StorageException if the file cannot be written
     */
    public ExportResult exportFile(MemoryProvider provider, java.nio.file.Path file) {
        java.nio.file.Path target = file.toAbsolutePath();
        java.nio.file.Path partial = null;
        try {
            partial = java.nio.file.Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".partial");
            ExportResult result;
            try (OutputStream stream = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(partial), 1 << 16)) {
                result = export(provider, stream);
            }
            try {
                java.nio.file.Files.move(partial, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                java.nio.file.Files.move(partial, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            partial = null;
            return result;
        } catch (IOException e) {
            throw new StorageException("Cannot write the export to " + target + ": " + e.getMessage(), e);
        } finally {
            if (partial != null) {
                try {
                    java.nio.file.Files.deleteIfExists(partial);
                } catch (IOException ignored) {
                    // Best effort: the name says what the file is.
                }
            }
        }
    }

    private interface WriterFactory {
        ExportWriter open() throws IOException;
    }

    private ExportResult export(MemoryProvider provider, WriterFactory output) {
        Objects.requireNonNull(provider, "provider");
        long started = System.nanoTime();
        Map<Scope, Long> entries = new EnumMap<>(Scope.class);
        for (Scope scope : Scope.values()) {
            entries.put(scope, 0L);
        }
        long[] counts = new long[4];
        List<TransferProblem> unreadable = new ArrayList<>();
        ProviderRecords records = new ProviderRecords(provider, scopes, pageSize);
        List<StoreProblem> sourceProblems = records.unseenProblems();
        Ticker ticker = new Ticker(progress, "export", Ticker.INTERVAL);
        try {
            ExportWriter writer = output.open();
            boolean complete = false;
            try {
                progress.update("export", 0, -1);
                records.read(new RecordVisitor() {
                    @Override
                    public void entry(long ordinal, String location, Records.Entry entry) {
                        MemoryEntry current = entry.current();
                        write(() -> writer.entry(entry));
                        if (entry.deleted()) {
                            counts[2]++;
                        } else {
                            entries.merge(current.scope(), 1L, Long::sum);
                        }
                        counts[0] += entry.history().size();
                        ticker.tick(ordinal + 1, -1);
                    }

                    @Override
                    public void relation(long ordinal, String location, Records.Relation relation) {
                        write(() -> writer.relation(relation));
                        counts[1]++;
                        ticker.tick(ordinal + 1, -1);
                    }

                    @Override
                    public void invalid(long ordinal, String location, String message) {
                        if (counts[3]++ < TransferProblem.MAX_LISTED) {
                            unreadable.add(new TransferProblem(location, message));
                        }
                        ticker.tick(ordinal + 1, -1);
                    }
                });
                complete = true;
            } finally {
                if (complete) {
                    writer.close();
                } else {
                    writer.abandon();
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new StorageException("Cannot write the export: " + e.getMessage(), e);
        }
        long done = entries.values().stream().mapToLong(Long::longValue).sum() + counts[1];
        progress.update("export", done, done);
        return new ExportResult(entries, counts[0], counts[1], counts[2], unreadable, counts[3], sourceProblems,
                Duration.ofNanos(System.nanoTime() - started));
    }


    private interface IoAction {
        void run() throws IOException;
    }

    private static void write(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds an {@link Exporter}. */
    public static final class Builder {
        private TransferFormat format = TransferFormat.JSON;
        private Set<Scope> scopes = EnumSet.allOf(Scope.class);
        private Optional<String> project = Optional.empty();
        private Clock clock = Clock.systemUTC();
        private int pageSize = 2000;
        private TransferProgress progress = TransferProgress.NONE;

        private Builder() {
        }

        /** JSON (one document) or JSONL (a record a line). */
        public Builder format(TransferFormat format) {
            this.format = Objects.requireNonNull(format, "format");
            return this;
        }

        /** The scopes to export; none given means all. */
        public Builder scopes(Set<Scope> scopes) {
            this.scopes = scopes.isEmpty() ? EnumSet.allOf(Scope.class) : EnumSet.copyOf(scopes);
            return this;
        }

        /** The project id written in the header. */
        public Builder project(String project) {
            this.project = Optional.of(project);
            return this;
        }

        /** The clock that stamps {@code exported_at}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How many entries one query reads (memory use grows with it); at least 1. */
        public Builder pageSize(int pageSize) {
            if (pageSize < 1) {
                throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
            }
            this.pageSize = pageSize;
            return this;
        }

        /** Where progress is reported. */
        public Builder progress(TransferProgress progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        /** The exporter. */
        public Exporter build() {
            return new Exporter(this);
        }
    }
}
