package dev.forge.memory.hybrid.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.support.files.AtomicFiles;
import dev.forge.memory.support.files.StoreLock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable outbox of a hybrid router: updates of its search and relationships children that did not happen yet,
 * in the order they were due, in one JSON Lines file ({@value #FILE_NAME}) in the outbox directory.
 *
 * <p>A record says "make child C agree with the storage about this key" ({@link Op#SYNC}, {@link Op#RESET},
 * {@link Op#RESTORE}) or "clear this scope of C" ({@link Op#CLEAR}); it never carries a value, so replaying it reads
 * the storage as it is then, and replaying it twice does no harm. Appends are forced to the disk before they return. The file is read and rewritten under the
 * directory's {@link StoreLock} (shared by every router of the JVM and by other processes); replays hold a second lock
 * (the {@value #DRAIN_DIRECTORY} subdirectory's) for their whole length, so that two replays never interleave, while
 * appends and checks only ever wait for the short file accesses.
 *
 * <p>A record whose replay failed for another reason than an unreachable child (a child that refuses the entry, say)
 * is kept with its error and attempt count and skipped by ordinary replays, so that it cannot hold up the rest: it is
 * tried again by {@link #drain} with {@code retryFailed}, which reindex does, and reported by the router's doctor.
 */
public final class Outbox {

    private static final Logger LOG = LoggerFactory.getLogger(Outbox.class);

    /** The name of the outbox file in the outbox directory. */
    public static final String FILE_NAME = "outbox.jsonl";
    /** The subdirectory whose lock a replay holds. */
    public static final String DRAIN_DIRECTORY = "replay";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Which child a record is for. */
    public enum Child {
        /** The search child. */
        SEARCH,
        /** The relationships child. */
        RELATIONSHIPS
    }

    /** What a record asks for. */
    public enum Op {
        /** Make the child's copy of {@code key} in {@code scope} what the storage holds now (or absent). */
        SYNC,
        /**
         * Delete the child's copy of {@code key} (and so its relations), then {@link #SYNC} it: for a deletion, after
         * which a key written again must not inherit the old entry's relations.
         */
        RESET,
        /** Remove from {@code scope} of the child every entry the storage no longer has. */
        CLEAR,
        /**
         * Make the child's copy of {@code key} the storage's after a restore: with the storage's versions and timestamps
         * where the child can restore, else as {@link #SYNC} does; the copy is never deleted first, so its relations
         * stay. Written as a sync with {@code "restore": true}, so that a router of an earlier version sharing the
         * outbox replays it as a sync instead of dropping a line it cannot read.
         */
        RESTORE
    }

    /**
     * One pending update.
     *
     * @param id       unique, so that a replay removes exactly the records it replayed
     * @param target   which child of which router configuration: routers whose child has another provider or other
     *                 settings leave the record alone
     * @param child    the child it is for
     * @param op       what to do
     * @param project  the project of the router that wrote it
     * @param session  the session of the router that wrote it
     * @param scope    the scope of the key, or the scope to clear
     * @param key      the key; empty for {@link Op#CLEAR}
     * @param attempts failed replays that were not about reachability
     * @param error    the last such failure; empty if none
     */
    public record Entry(String id, String target, Child child, Op op, String project, String session, Scope scope,
            String key, int attempts, String error) {

        /** Checks the fields. */
        public Entry {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(child, "child");
            Objects.requireNonNull(op, "op");
            Objects.requireNonNull(project, "project");
            Objects.requireNonNull(session, "session");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(error, "error");
        }

        /** A new record. */
        public static Entry of(String target, Child child, Op op, String project, String session, Scope scope,
                String key) {
            return new Entry(UUID.randomUUID().toString(), target, child, op, project, session, scope, key, 0, "");
        }

        /** Whether a replay failed on it for another reason than reachability. */
        public boolean failed() {
            return attempts > 0;
        }

        Entry withFailure(String message) {
            return new Entry(id, target, child, op, project, session, scope, key, attempts + 1, message);
        }

        Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", id);
            json.put("target", target);
            json.put("child", child.name().toLowerCase(java.util.Locale.ROOT));
            json.put("op", (op == Op.RESTORE ? Op.SYNC : op).name().toLowerCase(java.util.Locale.ROOT));
            if (op == Op.RESTORE) {
                json.put("restore", true);
            }
            json.put("project", project);
            json.put("session", session);
            json.put("scope", scope.name().toLowerCase(java.util.Locale.ROOT));
            json.put("key", key);
            if (attempts > 0) {
                json.put("attempts", attempts);
                json.put("error", error);
            }
            return json;
        }

        static Entry fromJson(Map<?, ?> json) {
            Object attempts = json.get("attempts");
            Object error = json.get("error");
            Op op = Op.valueOf(upper(text(json, "op")));
            // records written before restores came have no "restore" field: they read as they always did
            if (op == Op.SYNC && Boolean.TRUE.equals(json.get("restore"))) {
                op = Op.RESTORE;
            }
            return new Entry(text(json, "id"), text(json, "target"), Child.valueOf(upper(text(json, "child"))), op,
                    text(json, "project"), text(json, "session"), Scope.valueOf(upper(text(json, "scope"))),
                    text(json, "key"), attempts instanceof Number n ? n.intValue() : 0, error instanceof String s ? s : "");
        }

        private static String text(Map<?, ?> json, String field) {
            Object value = json.get(field);
            if (!(value instanceof String s)) {
                throw new IllegalArgumentException("field '" + field + "' is missing or not text");
            }
            return s;
        }

        private static String upper(String text) {
            return text.toUpperCase(java.util.Locale.ROOT);
        }
    }

    /** How the replay of one record went. */
    public enum Outcome {
        /** Done: the record goes. */
        DONE,
        /** The child cannot be reached: the record and every later one of that child stay. */
        UNAVAILABLE,
        /** Failed for another reason: the record stays, marked failed. */
        FAILED
    }

    /** The outcome of one record's replay, with the failure's message when it failed. */
    public record Result(Outcome outcome, String message) {
        /** Done. */
        public static final Result DONE = new Result(Outcome.DONE, "");
    }

    /** What a replay did. */
    public record DrainReport(int replayed, int remaining, int failed) {
    }

    /** The replay lock of each outbox directory open in this JVM, with its number of users. */
    private static final Map<Path, Replaying> REPLAYING = new HashMap<>();

    private static final class Replaying {
        final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        int users;
    }

    private final Path directory;
    private final Path file;
    private final StoreLock fileLock;
    private final StoreLock drainLock;
    private final Replaying replaying;
    private boolean closed;

    private Outbox(Path directory, StoreLock fileLock, StoreLock drainLock) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME);
        this.fileLock = fileLock;
        this.drainLock = drainLock;
        synchronized (REPLAYING) {
            Replaying shared = REPLAYING.computeIfAbsent(directory, d -> new Replaying());
            shared.users++;
            this.replaying = shared;
        }
    }

    /**
     * What the records of one child of a router are tagged with: its role, provider and settings, hashed, so that a
     * router configured with another child leaves them alone. The {@code secrets} of the settings (a password, a token
     * in a URL) are left out: a rotated one is the same child, whose waiting updates must still reach it. Records
     * written before secrets were left out carry the tag of no secrets ({@code Set.of()}).
     */
    public static String target(Child role, Map<String, Object> settings, Set<String> secrets) {
        String text = role + "|" + new TreeMap<>(settings);
        for (String secret : secrets) {
            text = text.replace(secret, "****");
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(
                    text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(digest, 0, 12);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Opens the outbox in {@code directory}, creating it.
     *
     * @throws StorageException if the directory or its locks cannot be made
     */
    public static Outbox open(Path directory) {
        try {
            AtomicFiles.createDirectories(directory.resolve(DRAIN_DIRECTORY), true);
            Path real = directory.toRealPath();
            StoreLock fileLock = StoreLock.acquire(real);
            StoreLock drainLock;
            try {
                drainLock = StoreLock.acquire(real.resolve(DRAIN_DIRECTORY));
            } catch (IOException | RuntimeException e) {
                fileLock.release();
                throw e;
            }
            return new Outbox(real, fileLock, drainLock);
        } catch (IOException e) {
            throw new StorageException("Cannot open the hybrid outbox at " + directory + ": " + e.getMessage()
                    + ". Check that the directory (outbox.path) is writable.", e);
        }
    }

    /** The outbox directory. */
    public Path directory() {
        return directory;
    }

    /**
     * Appends {@code entries} and forces them to the disk.
     *
     * @throws StorageException if they cannot be written
     */
    public void append(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Entry entry : entries) {
            bytes.writeBytes(json(entry));
        }
        try (StoreLock.Held held = fileLock.exclusive();
             FileChannel channel = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE,
                     StandardOpenOption.READ, StandardOpenOption.WRITE), AtomicFiles.privateFile(file))) {
            long size = channel.size();
            try {
                ByteBuffer buffer = ByteBuffer.allocate(bytes.size() + 1);
                if (size > 0 && !endsWithNewline(channel, size)) {
                    buffer.put((byte) '\n'); // a torn last line (a crash or a full disk) stays a line of its own
                }
                buffer.put(bytes.toByteArray()).flip();
                long position = size;
                while (buffer.hasRemaining()) {
                    position += channel.write(buffer, position);
                }
                channel.force(true);
            } catch (IOException | RuntimeException e) {
                channel.truncate(size);
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            throw new StorageException("Cannot write the hybrid outbox " + file + ": " + e.getMessage()
                    + ". The storage has the change; run 'forge-memory reindex' once the disk is writable to bring the"
                    + " search and relationships providers up to date.", e);
        }
    }

    private static boolean endsWithNewline(FileChannel channel, long size) throws IOException {
        ByteBuffer last = ByteBuffer.allocate(1);
        channel.read(last, size - 1);
        return last.get(0) == '\n';
    }

    private static byte[] json(Entry entry) {
        try {
            byte[] line = JSON.writeValueAsBytes(entry.toJson());
            byte[] withNewline = java.util.Arrays.copyOf(line, line.length + 1);
            withNewline[line.length] = '\n';
            return withNewline;
        } catch (IOException e) {
            throw new StorageException("Cannot encode an outbox record: " + e.getMessage(), e);
        }
    }

    /** Whether the file holds anything at all: one {@code stat}, no lock. */
    public boolean maybePending() {
        try {
            return Files.size(file) > 0;
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** The records, oldest first. */
    public List<Entry> entries() {
        if (!maybePending()) {
            return List.of();
        }
        try (StoreLock.Held held = fileLock.shared()) {
            return read();
        } catch (Exception e) {
            throw storageError("read", e);
        }
    }

    /** Whether a record that {@code mine} accepts and that has not failed is waiting for {@code child}. */
    public boolean pending(Child child, Predicate<Entry> mine) {
        if (!maybePending()) {
            return false;
        }
        return entries().stream().anyMatch(e -> e.child() == child && !e.failed() && mine.test(e));
    }

    /**
     * Replays the records {@code mine} accepts, oldest first, with {@code replay}; leaves the others. Once a child's
     * record is {@link Outcome#UNAVAILABLE}, the child's later records wait for the next replay. Records that failed
     * before are skipped unless {@code retryFailed}. If another replay is running, returns at once with nothing done
     * when {@code wait} is false, else waits for it.
     */
    public DrainReport drain(Predicate<Entry> mine, Function<Entry, Result> replay, boolean retryFailed, boolean wait) {
        if (!maybePending()) {
            return new DrainReport(0, 0, 0);
        }
        if (wait) {
            replaying.lock.lock();
        } else if (!replaying.lock.tryLock()) {
            return new DrainReport(0, -1, 0);
        }
        try (StoreLock.Held otherProcesses = drainLock.exclusive()) {
            List<Entry> snapshot = entries();
            List<String> done = new ArrayList<>();
            Map<String, Entry> failed = new HashMap<>();
            java.util.Set<Child> unavailable = java.util.EnumSet.noneOf(Child.class);
            java.util.Set<String> synced = new java.util.HashSet<>();
            for (Entry entry : snapshot) {
                if (!mine.test(entry) || unavailable.contains(entry.child()) || (entry.failed() && !retryFailed)) {
                    continue;
                }
                String target = entry.target() + "\u0000" + entry.child() + "\u0000" + entry.project() + "\u0000" + entry.session() + "\u0000"
                        + entry.scope() + "\u0000" + entry.key();
                if (entry.op() == Op.SYNC && synced.contains(target)) {
                    done.add(entry.id()); // a sync reads the storage as it is now: once is enough
                    continue;
                }
                Result result;
                try {
                    result = replay.apply(entry);
                } catch (RuntimeException e) {
                    result = new Result(Outcome.FAILED, e.toString());
                }
                switch (result.outcome()) {
                    case DONE -> {
                        done.add(entry.id());
                        if (entry.op() != Op.CLEAR) {
                            synced.add(target);
                        }
                    }
                    case UNAVAILABLE -> unavailable.add(entry.child());
                    case FAILED -> failed.put(entry.id(), entry.withFailure(result.message()));
                }
            }
            if (done.isEmpty() && failed.isEmpty()) {
                return new DrainReport(0, snapshot.size(), (int) snapshot.stream().filter(Entry::failed).count());
            }
            return rewrite(done, failed);
        } finally {
            replaying.lock.unlock();
        }
    }

    private DrainReport rewrite(List<String> done, Map<String, Entry> failed) {
        java.util.Set<String> gone = new java.util.HashSet<>(done);
        try (StoreLock.Held held = fileLock.exclusive()) {
            List<Entry> kept = new ArrayList<>();
            for (Entry entry : read()) {
                if (!gone.contains(entry.id())) {
                    kept.add(failed.getOrDefault(entry.id(), entry));
                }
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Entry entry : kept) {
                bytes.writeBytes(json(entry));
            }
            AtomicFiles.write(directory, file, bytes.toByteArray(), true);
            int failures = (int) kept.stream().filter(Entry::failed).count();
            return new DrainReport(done.size(), kept.size(), failures);
        } catch (Exception e) {
            throw storageError("rewrite", e);
        }
    }

    /** Reads the file; a line that cannot be parsed (a torn last line after a crash) is logged and left out. */
    private List<Entry> read() throws IOException {
        List<String> lines;
        try {
            // decoded leniently: a line torn inside a character must not make the others unreadable
            lines = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<Entry> entries = new ArrayList<>(lines.size());
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                entries.add(Entry.fromJson(JSON.readValue(line, Map.class)));
            } catch (IOException | RuntimeException e) {
                LOG.warn("Skipping line {} of the hybrid outbox {}: it cannot be read ({}). If the process crashed while"
                        + " appending, the update it held is lost: run 'forge-memory reindex' to rebuild the search and"
                        + " relationships providers from the storage.", i + 1, file, e.getMessage());
            }
        }
        return entries;
    }

    private StorageException storageError(String what, Exception e) {
        return new StorageException("Cannot " + what + " the hybrid outbox " + file + ": " + e.getMessage()
                + ". Check the directory's permissions (outbox.path).", e);
    }

    /** Lets the locks go. */
    public void close() {
        synchronized (REPLAYING) {
            if (closed) {
                return;
            }
            closed = true;
            if (--replaying.users == 0) {
                REPLAYING.remove(directory);
            }
        }
        drainLock.release();
        fileLock.release();
    }
}
