package dev.forge.memory.support.files;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.function.Supplier;

/**
 * Keeping thread interrupts from breaking a file change half-way. An interrupt closes a {@link java.nio.channels.FileChannel}
 * in the middle of whatever it was doing; file stores therefore use streams and {@code RandomAccessFile}, which
 * interrupts do not affect, and retry the few channel operations it needs (directory fsync, file locks). The
 * interrupt is never lost: the flag is set again when the call returns.
 */
public final class Interrupts {

    /** How many times a channel operation is retried after an interrupt closed its channel. */
    static final int MAX_ATTEMPTS = 1000;

    private Interrupts() {
    }

    /** A channel operation. */
    @FunctionalInterface
    interface ChannelCall<T> {
        T call() throws IOException;
    }

    /** Runs {@code body} with the interrupt flag cleared; sets the flag again afterwards if it was set before or during. */
    public static <T> T deferred(Supplier<T> body) {
        boolean interrupted = Thread.interrupted();
        try {
            return body.get();
        } finally {
            if (Thread.interrupted() || interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs a channel operation that is safe to repeat, again when an interrupt closed its channel; the interrupt
     * flag is set again afterwards.
     *
     * @throws ClosedByInterruptException after {@link #MAX_ATTEMPTS} interrupted attempts
     */
    static <T> T retrying(ChannelCall<T> call) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    return call.call();
                } catch (ClosedByInterruptException e) {
                    Thread.interrupted();
                    interrupted = true;
                    if (attempt >= MAX_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
