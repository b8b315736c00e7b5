package dev.forge.memory.file.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * The store's change journal, {@code <store>/journal}: how every provider on a directory learns what the others
 * changed without re-reading every file.
 *
 * <p>The first line is a header, {@code forge-memory-journal 1 <generation>}. Every write appends, under the
 * exclusive store lock and after its files are in place, one line per change: {@code S} (an entry file was
 * written), {@code D} (removed), {@code C} (a namespace was cleared) or {@code R} (the relations file was
 * rewritten), a tab, the namespace path, a tab, the entry's file name without extension. A reader remembers
 * the generation and the offset it has read up to; one {@code stat} tells it whether there is anything new.
 * When the journal grows past its limit a writer replaces it, atomically, by a new file with a new generation;
 * a reader that finds another generation (or a file that is not the one it read) rescans the directories.
 */
public final class Journal {

    /** The name of the journal file in the store directory. */
    public static final String FILE_NAME = "journal";

    private static final String MAGIC = "forge-memory-journal 1 ";
    private static final int MAX_HEADER = 256;

    /** What one {@code stat} of the journal shows; equal stamps mean nothing was appended or replaced. */
    public record Stamp(long size, Object fileKey, FileTime modified) {
        /** The stamp of a journal that does not exist. */
        public static final Stamp MISSING = new Stamp(-1, null, null);
    }

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
     * @param lines      the complete new lines, when not reset
     * @param damaged    whether some new line could not be parsed, so the reader must rescan
     * @param end        the offset after the last complete line
     */
    public record Read(String generation, boolean reset, List<Line> lines, boolean damaged, long end) {
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
    public Stamp stamp() throws IOException {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(attributes.size(), attributes.fileKey(), attributes.lastModifiedTime());
        } catch (NoSuchFileException e) {
            return Stamp.MISSING;
        }
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
     * Reads what was appended after {@code offset}, if the journal still has {@code generation}; otherwise
     * reports a reset. Only complete lines are returned.
     *
     * @param generation the generation the reader knows, or {@code null} for none
     */
    public Read read(String generation, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(MAX_HEADER, size));
            while (head.hasRemaining() && channel.read(head) > 0) {
                // fill the header buffer
            }
            String headText = new String(head.array(), 0, head.position(), StandardCharsets.US_ASCII);
            int newline = headText.indexOf('\n');
            String found = newline > MAGIC.length() && headText.startsWith(MAGIC) ? headText.substring(MAGIC.length(), newline) : null;
            long headerEnd = newline + 1L;
            if (found == null) {
                return new Read(null, true, List.of(), false, size);
            }
            if (!found.equals(generation) || offset < headerEnd || offset > size) {
                return new Read(found, true, List.of(), false, size);
            }
            ByteBuffer rest = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 8, size - offset));
            channel.position(offset);
            while (rest.hasRemaining() && channel.read(rest) > 0) {
                // read to the end
            }
            byte[] bytes = rest.array();
            int length = rest.position();
            List<Line> lines = new ArrayList<>();
            boolean damaged = false;
            int start = 0;
            for (int i = 0; i < length; i++) {
                if (bytes[i] == '\n') {
                    Line line = parse(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                    if (line == null) {
                        damaged = true;
                    } else {
                        lines.add(line);
                    }
                    start = i + 1;
                }
            }
            return new Read(found, false, List.copyOf(lines), damaged, offset + start);
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
     */
    public void append(List<Line> lines) throws IOException {
        StringBuilder text = new StringBuilder();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size > 0) {
                ByteBuffer last = ByteBuffer.allocate(1);
                channel.read(last, size - 1);
                if (last.get(0) != '\n') {
                    text.append('\n');
                }
            }
            lines.forEach(line -> text.append(line.format()));
            ByteBuffer buffer = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            long position = size;
            while (buffer.hasRemaining()) {
                position += channel.write(buffer, position);
            }
        }
    }
}
