package dev.forge.memory;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A remote HTTP service the library calls (an embedding service, an LLM consolidator) gave no usable answer: it
 * refused the request, could not be reached, did not answer in time, or answered with something unusable. Carries the
 * HTTP status and the start of the body when there was a response.
 *
 * <p>Never holds an API key: neither in its message nor in the body excerpt.
 */
public class RemoteServiceException extends BackendUnavailableException {
    private static final long serialVersionUID = 1L;

    /** The HTTP status of the last response, or -1 if there was none. */
    private final int status;
    /** The start of the last response's body, or null. */
    private final String bodyExcerpt;

    /**
     * An error.
     *
     * @param message     what happened and what to do
     * @param status      the HTTP status of the last response, or -1 if there was no response
     * @param bodyExcerpt the start of the last response's body, with secrets removed, or {@code null}
     * @param cause       the I/O error or parser error, or {@code null}
     */
    public RemoteServiceException(String message, int status, String bodyExcerpt, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.bodyExcerpt = bodyExcerpt;
    }

    /** The HTTP status of the last response, if the service answered at all. */
    public OptionalInt status() {
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** The start of the last response's body (at most a few hundred characters), if there was one. */
    public Optional<String> bodyExcerpt() {
        return Optional.ofNullable(bodyExcerpt);
    }
}
