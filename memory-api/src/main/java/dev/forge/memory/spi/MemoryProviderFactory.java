package dev.forge.memory.spi;

import dev.forge.memory.Capability;
import dev.forge.memory.MemoryProvider;
import java.util.List;
import java.util.Set;

/**
 * Makes providers of one kind; found by {@link java.util.ServiceLoader} through
 * {@code META-INF/services/dev.forge.memory.spi.MemoryProviderFactory}.
 *
 * <p>An implementation has a public no-argument constructor that does nothing: all work, all I/O and all
 * validation of configuration happen in {@link #open}.
 */
public interface MemoryProviderFactory {

    /**
     * The fixed, short name config selects this provider by, such as {@code file} or {@code sqlite}: lower-case
     * letters, digits and {@code -}, starting with a letter, at most 64 characters.
     */
    String name();

    /** One sentence for {@code forge-memory providers}. */
    default String description() {
        return name() + " provider";
    }

    /**
     * The capabilities a provider of this factory reports with its default settings, for listings such as
     * {@code forge-memory providers}; found without opening anything. A router's real capabilities depend on its
     * config: {@link MemoryProvider#capabilities()} of an open provider is authoritative.
     */
    default Set<Capability> capabilities() {
        return Set.of();
    }

    /**
     * The keys this provider's config block takes, in the order a template shows them, their defaults taken from the
     * same constants the provider's config uses; found without opening anything. Empty: not described (a template
     * then points to the provider's documentation).
     */
    default List<Setting> settings() {
        return List.of();
    }

    /**
     * Opens a provider on the store the context and its config describe, creating the store if needed.
     *
     * @throws dev.forge.memory.ConfigurationException      if the config is invalid
     * @throws dev.forge.memory.BackendUnavailableException if the backend cannot be reached
     */
    MemoryProvider open(ProviderContext context);
}
