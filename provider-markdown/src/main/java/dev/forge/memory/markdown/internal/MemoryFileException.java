package dev.forge.memory.markdown.internal;

import java.util.OptionalInt;

/**
 * A memory file that cannot be read. The message is one line saying what is wrong and, when known, on which line
 * of the file; it names fields but never quotes the body or metadata values, which may be private.
 */
public final class MemoryFileException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int line;

    /**
     * A problem at a known line.
     *
     * @param line    the 1-based line of the file, counting the opening {@code ---} as line 1
     * @param problem what is wrong, without the line prefix
     * @param cause   the parser's exception, or null
     */
    public MemoryFileException(int line, String problem, Throwable cause) {
        super("line " + line + ": " + problem, cause);
        if (line < 1) {
            throw new IllegalArgumentException("a line number starts at 1");
        }
        this.line = line;
    }

    /**
     * A problem with no single line to point at.
     *
     * @param problem what is wrong
     * @param cause   the underlying exception, or null
     */
    public MemoryFileException(String problem, Throwable cause) {
        super(problem, cause);
        this.line = 0;
    }

    /** The 1-based line of the file the problem is on, if known. */
    public OptionalInt line() {
        return line == 0 ? OptionalInt.empty() : OptionalInt.of(line);
    }
}
