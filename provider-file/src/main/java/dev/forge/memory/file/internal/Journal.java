package dev.forge.memory.file.internal;

import dev.forge.memory.support.files.AtomicFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The store's change journal, {@code <store>/journal}: how every provider on a directory learns what the others
 * changed without re-reading every file.
 *
 * <p>The first line is a header, {@code forge-memory-journal 1 <generation>}. Every write appends, under the
 * exclusive store lock, one line per change: {@code S} (an entry file is written), {@code D} (removed),
 * {@code C} (a namespace is cleared) or {@code R} (the relations file is rewritten), a tab, the namespace path, a
 * tab, the entry's file name without extension. A single write appends its lines before it changes any file, so
 * that no change can be on disk without its line; a line whose change then failed only makes readers re-read a
 * file that did not change. A transaction commit appends its lines once all its files are in place. A reader
 * remembers the generation and the offset it has read up to; one {@code stat} tells it whether there is anything
 * new. When the journal grows past its limit a writer replaces it, atomically, by a new file with a new
 * generation; a reader that finds another generation (or a file that is not the one it read) rescans the
 * directories.
 *
 * <p>Reads and appends use {@link RandomAccessFile}, which thread interrupts do not close.
 */
public final class Journal {

    /** The name of the journal file in the store directory. */
    public static final String FILE_NAME = "journal";

    private static final String MAGIC = "forge-memory-journal 1 ";
    private static final int MAX_HEADER = 256;
    private static final int CHUNK = 64 * 1024;
    /** Longer than any line a writer makes (two file names and a namespace path); a longer one is damage. */
    private static final int MAX_LINE = 1024;
    /** Past this many new lines a full rescan is cheaper than re-reading each named file. */
    private static final int MAX_LINES = 10_000;

    /** One change. */
    public record Line(char op, String namespace, String name) {
        /** An entry file was written. */
        public static final char SET = 'S';
        /** An entry file was removed. */
        public static final char DELETE = 'D';
        /** A namespace was cleared. */
        public static final char CLEAR = 'C';
        /** The relations file was rewritten. */
        public static final char RELATIONS = 'R';

        /** Rejects separators inside the fields. */
        public Line {
            Objects.requireNonNull(namespace, "namespace");
            Objects.requireNonNull(name, "name");
            if (namespace.indexOf('\t') >= 0 || namespace.indexOf('\n') >= 0 || name.indexOf('\t') >= 0 || name.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("journal fields hold no tabs or newlines");
            }
        }

        /** An entry file of {@code namespace} was written. */
        public static Line set(Namespace namespace, String name) {
            return new Line(SET, namespace.path(), name);
        }

        /** An entry file of {@code namespace} was removed. */
        public static Line delete(Namespace namespace, String name) {
            return new Line(DELETE, namespace.path(), name);
        }

        /** {@code namespace} was cleared. */
        public static Line clear(Namespace namespace) {
            return new Line(CLEAR, namespace.path(), "-");
        }

        /** The relations file was rewritten. */
        public static Line relations() {
            return new Line(RELATIONS, "-", "-");
        }

        String format() {
            return op + "\t" + namespace + "\t" + name + "\n";
        }
    }

    /**
     * What a reader found.
     *
     * @param generation the journal's generation, {@code null} if its header is unreadable
     * @param reset      whether the generation differs from the reader's, so the reader must rescan
     * @param lines      the complete new lines, when not reset and not {@code rescan}
     * @param rescan     whether some new line could not be parsed, or there were too many to apply one by one, so
     *                   the reader must rescan
     * @param end        the offset after the last complete line
     */
    public record Read(String generation, boolean reset, List<Line> lines, boolean rescan, long end) {
    }

    private final Path file;

    /** The journal of the store in {@code store}. */
    public Journal(Path store) {
        this.file = store.resolve(FILE_NAME);
    }

    /** The journal file. */
    public Path file() {
        return file;
    }

    /** One {@code stat} of the journal file. */
    public FileStamp stamp() throws IOException {
        return FileStamp.of(file);
    }

    /**
     * Replaces the journal, atomically, by an empty one with a new generation. Call under the exclusive lock.
     *
     * @return the new generation
     */
    public String reset(boolean fsync) throws IOException {
        String generation = UUID.randomUUID().toString();
        AtomicFiles.write(file.getParent(), file, (MAGIC + generation + "\n").getBytes(StandardCharsets.US_ASCII), fsync);
        return generation;
    }

    /**
     * Makes every reader rescan after a failed append: a new generation or, failing that, no journal at all.
     *
     * @return whether it worked
     */
    public boolean invalidate(boolean fsync) {
        try {
            reset(fsync);
            return true;
        } catch (IOException e) {
            try {
                Files.deleteIfExists(file);
                return true;
            } catch (IOException again) {
                e.addSuppressed(again);
                return false;
            }
        }
    }

    /**
     * Reads what was appended after {@code offset}, if the journal still has {@code generation}; otherwise
     * reports a reset. Only complete lines are returned. Reads in chunks: memory does not grow with the file.
     *
     * @param generation the generation the reader knows, or {@code null} for none
     */
    public Read read(String generation, long offset) throws IOException {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long size = in.length();
            byte[] head = new byte[(int) Math.min(MAX_HEADER, size)];
            int headLength = 0;
            for (int n; headLength < head.length && (n = in.read(head, headLength, head.length - headLength)) > 0; ) {
                headLength += n;
            }
            String headText = new String(head, 0, headLength, StandardCharsets.US_ASCII);
            int newline = headText.indexOf('\n');
            String found = newline > MAGIC.length() && headText.startsWith(MAGIC) ? headText.substring(MAGIC.length(), newline) : null;
            long headerEnd = newline + 1L;
            if (found == null) {
                return new Read(null, true, List.of(), false, size);
            }
            if (!found.equals(generation) || offset < headerEnd || offset > size) {
                return new Read(found, true, List.of(), false, size);
            }
            in.seek(offset);
            List<Line> lines = new ArrayList<>();
            boolean rescan = false;
            ByteArrayOutputStream line = new ByteArrayOutputStream(128);
            boolean overlong = false;
            long position = offset;
            long end = offset;
            byte[] chunk = new byte[CHUNK];
            for (int n; (n = in.read(chunk)) > 0; position += n) {
                for (int i = 0; i < n; i++) {
                    byte b = chunk[i];
                    if (b != '\n') {
                        if (line.size() >= MAX_LINE) {
                            overlong = true;
                        } else {
                            line.write(b);
                        }
                        continue;
                    }
                    end = position + i + 1;
                    if (!rescan) {
                        Line parsed = overlong ? null : parse(line.toString(StandardCharsets.UTF_8));
                        if (parsed == null || lines.size() >= MAX_LINES) {
                            rescan = true;
                            lines = List.of();
                        } else {
                            lines.add(parsed);
                        }
                    }
                    line.reset();
                    overlong = false;
                }
            }
            return new Read(found, false, List.copyOf(lines), rescan, end);
        }
    }

    private static Line parse(String text) {
        String[] fields = text.split("\t", -1);
        if (fields.length != 3 || fields[0].length() != 1) {
            return null;
        }
        char op = fields[0].charAt(0);
        if (op != Line.SET && op != Line.DELETE && op != Line.CLEAR && op != Line.RELATIONS) {
            return null;
        }
        return new Line(op, fields[1], fields[2]);
    }

    /**
     * Appends lines; call under the exclusive lock. If the file does not end with a newline (a writer died in the
     * middle of a line), the fragment is closed first, so that it reads as one damaged line (and makes readers
     * rescan) rather than spoiling the first new one.
     *
     * @return whether a fragment was closed, so that the caller, which skips past it, must rescan too
     */
    public boolean append(List<Line> lines) throws IOException {
        StringBuilder text = new StringBuilder();
        boolean torn = false;
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            long size = out.length();
            if (size > 0) {
                out.seek(size - 1);
                if (out.read() != '\n') {
                    text.append('\n');
                    torn = true;
                }
            }
            lines.forEach(line -> text.append(line.format()));
            out.seek(size);
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
        }
        return torn;
    }
}
