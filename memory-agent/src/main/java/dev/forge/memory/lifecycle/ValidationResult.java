package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.util.List;
import java.util.Objects;

/**
 * What {@link PluginMemory#validate(LayeredKey)} found.
 *
 * @param key         the document
 * @param checks      the quality checks
 * @param suggestions what to improve, for people; empty when there is nothing to say
 */
public record ValidationResult(LayeredKey key, QualityChecks checks, List<String> suggestions) {

    /** Copies the list. */
    public ValidationResult {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(checks, "checks");
        suggestions = List.copyOf(suggestions);
    }
}
