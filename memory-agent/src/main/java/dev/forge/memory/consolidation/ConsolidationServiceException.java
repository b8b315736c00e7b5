package dev.forge.memory.consolidation;

import dev.forge.memory.RemoteServiceException;

/**
 * A remote consolidator (an LLM service) gave no usable plan: it refused the request, did not answer in time, could not
 * be reached, or answered with something that is not a plan. {@link Consolidation} reports it and writes nothing.
 *
 * <p>Never holds the API key: neither in its message nor in the body excerpt.
 */
public class ConsolidationServiceException extends RemoteServiceException {
    private static final long serialVersionUID = 1L;

    /**
     * An error.
     *
     * @param message     what happened and what to do
     * @param status      the HTTP status, or -1 if there was no response
     * @param bodyExcerpt the start of the body with secrets removed, or {@code null}
     * @param cause       the I/O or parser error, or {@code null}
     */
    public ConsolidationServiceException(String message, int status, String bodyExcerpt, Throwable cause) {
        super(message, status, bodyExcerpt, cause);
    }
}
