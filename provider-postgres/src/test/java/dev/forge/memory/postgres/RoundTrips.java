package dev.forge.memory.postgres;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the round trips the PostgreSQL JDBC driver makes on the calling thread while open: each ends with a Sync
 * message, which the driver logs at FINEST. Counts messages, not time.
 */
final class RoundTrips implements AutoCloseable {

    private static final Logger DRIVER = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    private final Thread thread = Thread.currentThread();
    private final AtomicInteger syncs = new AtomicInteger();
    private final Level level;
    private final boolean parents;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (Thread.currentThread() == thread && " FE=> Sync".equals(record.getMessage())) {
                syncs.incrementAndGet();
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private RoundTrips() {
        level = DRIVER.getLevel();
        parents = DRIVER.getUseParentHandlers();
        handler.setLevel(Level.ALL);
        // the driver's FINEST lines stay here, not in the build's log
        DRIVER.setUseParentHandlers(false);
        DRIVER.setLevel(Level.FINEST);
        DRIVER.addHandler(handler);
    }

    /** Starts counting. */
    static RoundTrips counting() {
        return new RoundTrips();
    }

    /** The round trips so far. */
    int count() {
        return syncs.get();
    }

    @Override
    public void close() {
        DRIVER.removeHandler(handler);
        DRIVER.setLevel(level);
        DRIVER.setUseParentHandlers(parents);
    }
}
