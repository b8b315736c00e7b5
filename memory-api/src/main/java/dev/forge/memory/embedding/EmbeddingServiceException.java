package dev.forge.memory.embedding;

import dev.forge.memory.RemoteServiceException;

/**
 * A remote embedding service could not give vectors: it refused the request (a 4xx status such as 401 for a wrong
 * key or 404 for an unknown model), kept failing after every retry (429, 5xx, no connection, timeout), or answered
 * with something that is not a valid embedding response (not JSON, too few vectors, vectors of another dimension).
 *
 * <p>Never holds the API key: neither in its message nor in the body excerpt.
 */
public class EmbeddingServiceException extends RemoteServiceException {
    private static final long serialVersionUID = 1L;

    /**
     * An error.
     *
     * @param message     what happened and what to do
     * @param status      the HTTP status of the last response, or -1 if there was no response
     * @param bodyExcerpt the start of the last response's body, with secrets removed, or {@code null}
     * @param cause       the I/O error or parser error, or {@code null}
     */
    public EmbeddingServiceException(String message, int status, String bodyExcerpt, Throwable cause) {
        super(message, status, bodyExcerpt, cause);
    }
}
