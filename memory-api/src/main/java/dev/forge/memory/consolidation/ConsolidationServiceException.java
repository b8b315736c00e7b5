package dev.forge.memory.consolidation;

import dev.forge.memory.BackendUnavailableException;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A remote consolidator (an LLM service) gave no usable plan: it refused the request, did not answer in time, could not
 * be reached, or answered with something that is not a plan. {@link Consolidation} reports it and writes nothing.
 *
 * <p>Never holds the API key: neither in its message nor in the body excerpt.
 */
public class ConsolidationServiceException extends BackendUnavailableException {
    private static final long serialVersionUID = 1L;

    /** The HTTP status, or -1 if there was no response. */
    private final int status;
    /** The start of the response body, or null. */
    private final String bodyExcerpt;

    /**
     * An error.
     *
     * @param message     what happened and what to do
     * @param status      the HTTP status, or -1 if there was no response
     * @param bodyExcerpt the start of the body with secrets removed, or {@code null}
     * @param cause       the I/O or parser error, or {@code null}
     */
    public ConsolidationServiceException(String message, int status, String bodyExcerpt, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.bodyExcerpt = bodyExcerpt;
    }

    /** The HTTP status, if the service answered. */
    public OptionalInt status() {
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** The start of the response body, if there was one. */
    public Optional<String> bodyExcerpt() {
        return Optional.ofNullable(bodyExcerpt);
    }
}
