package dev.forge.memory.transfer;

import dev.forge.memory.MemoryException;
import java.util.List;

/**
 * An export file (or source) that cannot be imported as it is: broken JSON, a truncated file, a wrong format or
 * version, a duplicate key, an invalid record. Nothing was imported. The message names each problem's location
 * (a line of a JSON Lines file, a line and JSON path of a JSON document, or an entry of a source provider).
 */
public class TransferFileException extends MemoryException {
    private static final long serialVersionUID = 1L;

    private final transient List<TransferProblem> problems;

    /** An error listing {@code problems} (at least one). */
    public TransferFileException(String message, List<TransferProblem> problems) {
        super(message);
        this.problems = List.copyOf(problems);
    }

    /** An error listing {@code problems}, with the cause. */
    public TransferFileException(String message, List<TransferProblem> problems, Throwable cause) {
        super(message, cause);
        this.problems = List.copyOf(problems);
    }

    /** The problems found, in file order; at most {@link TransferProblem#MAX_LISTED} of them. */
    public List<TransferProblem> problems() {
        return problems == null ? List.of() : problems;
    }
}
