package dev.forge.memory.cli;

/**
 * The command ran but could not do its work, for a reason the API reported rather than threw (a consolidation whose
 * plan was rejected): exit 4, with the reason as the one line on stderr.
 */
final class CommandFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CommandFailedException(String reason) {
        super(reason);
    }
}
