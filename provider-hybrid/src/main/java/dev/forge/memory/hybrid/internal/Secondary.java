package dev.forge.memory.hybrid.internal;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.support.TimeSpan;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One secondary child of a hybrid router, its search or its relationships provider: its role, its provider (opened
 * when the router opens, or later, when it could not be reached then) and when it may be tried again after it failed.
 */
public final class Secondary {

    private static final Logger LOG = LoggerFactory.getLogger(Secondary.class);

    /** What the router knows of a secondary child when it opens: the child, or null if it could not be reached. */
    public record Opening(MemoryProvider provider, Set<Capability> capabilities) {
    }

    /** Opens the child's provider (again). */
    @FunctionalInterface
    public interface Opener {

        /**
         * Opens it.
         *
         * @throws BackendUnavailableException if it cannot be reached
         */
        MemoryProvider open();
    }

    final Outbox.Child role;
    final String label;
    final String target;
    /** The target records were tagged with before secrets were kept out of it; still replayed. */
    final String earlierTarget;
    /** The child's capabilities, or its factory's declared ones while it has not been opened. */
    final Set<Capability> capabilities;
    private final Opener opener;
    private final TimeSpan retryInterval;
    private final long retryNanos;
    private final OpenState state;
    private volatile MemoryProvider opened;
    volatile long retryAt;
    volatile boolean down;

    /**
     * A child as the router opened it (or could not).
     *
     * @param settings      the child's settings, its provider's name included, from which its outbox target is made
     * @param providerName  the name of the child's provider
     * @param secrets       the secret values of the child's settings, kept out of its outbox target
     * @param opener        opens the child later, if {@code opening} has none
     * @param retryInterval how long after a failure the child is tried again
     * @param state         the router's; a closed router opens no child
     */
    public Secondary(Outbox.Child role, Map<String, Object> settings, String providerName, Set<String> secrets,
            Opening opening, Opener opener, TimeSpan retryInterval, OpenState state) {
        this.role = role;
        this.target = Outbox.target(role, settings, secrets);
        this.earlierTarget = Outbox.target(role, settings, Set.of());
        this.label = roleName(role) + " provider '" + providerName + "'";
        this.opener = opener;
        this.retryInterval = retryInterval;
        this.retryNanos = retryInterval.duration().toNanos();
        this.state = state;
        this.opened = opening.provider();
        this.capabilities = opening.provider() != null ? opening.provider().capabilities() : opening.capabilities();
        if (opening.provider() == null) {
            down = true;
            retryAt = System.nanoTime() + retryNanos;
        }
    }

    /** The name of a role in config: {@code search} or {@code relationships}. */
    public static String roleName(Outbox.Child role) {
        return role == Outbox.Child.SEARCH ? "search" : "relationships";
    }

    /** What messages call the child: {@code search provider 'vector'}. */
    public String label() {
        return label;
    }

    /** The child's capabilities, or its factory's declared ones while it has not been opened. */
    public Set<Capability> capabilities() {
        return capabilities;
    }

    /**
     * The child, opened now if it could not be reached before and may be tried again.
     *
     * @throws BackendUnavailableException if it still cannot be reached
     */
    public MemoryProvider provider() {
        MemoryProvider child = opened;
        if (child != null) {
            return child;
        }
        synchronized (this) {
            if (opened != null) {
                return opened;
            }
            state.checkOpen();
            if (System.nanoTime() - retryAt < 0) {
                throw new BackendUnavailableException("The " + label + " could not be reached when the hybrid"
                        + " provider opened; it is tried again every " + retryInterval + ".");
            }
            try {
                opened = opener.open();
            } catch (BackendUnavailableException e) {
                retryAt = System.nanoTime() + retryNanos;
                throw e;
            }
            LOG.info("Opened the {}, which could not be reached before", label);
            return opened;
        }
    }

    /** The child if it is open. */
    public Optional<MemoryProvider> ifOpen() {
        return Optional.ofNullable(opened);
    }

    /** Closes the child if it is open. */
    public synchronized void close() {
        if (opened != null) {
            opened.close();
        }
    }

    /** Whether {@code entry} is tagged as this child's, now or before secrets were kept out of the tag. */
    boolean targets(Outbox.Entry entry) {
        return target.equals(entry.target()) || earlierTarget.equals(entry.target());
    }

    /** How long the router waits before it tries this child again after it failed. */
    TimeSpan retryInterval() {
        return retryInterval;
    }

    /** Notes that the child failed: it is tried again after the retry interval. */
    void failed() {
        retryAt = System.nanoTime() + retryNanos;
    }

    /** How long the child waits after a failure, for messages. */
    Duration retryDelay() {
        return Duration.ofNanos(retryNanos);
    }
}
