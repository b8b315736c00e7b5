package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;

/** Whether a hybrid router is open; shared by its parts, which all refuse work once it is closed. */
public final class OpenState {

    private volatile boolean closed;

    /**
     * Fails if the router is closed.
     *
     * @throws BackendUnavailableException if it is
     */
    public void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("The hybrid provider is closed; open a new one.");
        }
    }

    /** Whether the router is closed. */
    public boolean isClosed() {
        return closed;
    }

    /** Closes the router; true the first time only. */
    public synchronized boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }
}
