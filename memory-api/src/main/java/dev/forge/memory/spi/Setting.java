package dev.forge.memory.spi;

import java.util.Objects;

/**
 * One key of a provider's config block, as {@link MemoryProviderFactory#settings()} describes it for templates such
 * as {@code forge-memory init}'s.
 *
 * @param name         the key, in {@code snake_case}; a key inside a block is dotted ({@code cache.ttl}), and the block
 *                     itself ({@code cache}) may be described too, for its help
 * @param type         a word for readers: string, path, boolean, integer, number, size ({@code 8MB}), duration
 *                     ({@code 5s}), map, or the allowed values ({@code one of: none, gzip})
 * @param defaultValue the value used when the key is left out, as YAML; for a key without one (required, or off when
 *                     left out, as the help says) an example; empty for a block whose keys are described beside it
 * @param help         one line: what the key means
 * @param required     whether the block must hold the key; a template writes it, with its example, uncommented
 */
public record Setting(String name, String type, String defaultValue, String help, boolean required) {

    /** Checks that every part is given and the name is not blank. */
    public Setting {
        if (Objects.requireNonNull(name, "name").isBlank()) {
            throw new IllegalArgumentException("A setting needs a name.");
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(help, "help");
    }

    /** A key that may be left out, with its default (or, where the help says it is off when left out, an example). */
    public static Setting of(String name, String type, String defaultValue, String help) {
        return new Setting(name, type, defaultValue, help, false);
    }

    /** A key the block must hold, with an example value. */
    public static Setting required(String name, String type, String example, String help) {
        return new Setting(name, type, example, help, true);
    }
}
