package dev.forge.memory.transfer;

import dev.forge.memory.InvalidRequestException;
import java.util.Locale;

/** What an import does with a key the target already holds. */
public enum ConflictPolicy {
    /** Replace the target's key with the imported one. */
    OVERWRITE,
    /** Keep the target's key as it is. */
    SKIP,
    /** Replace it only if the imported entry was updated later than the target's. */
    NEWER;

    /** The policy name as written on the command line. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy of a name such as {@code overwrite}, {@code skip} or {@code newer}. */
    public static ConflictPolicy parse(String name) {
        for (ConflictPolicy policy : values()) {
            if (policy.id().equalsIgnoreCase(name.strip())) {
                return policy;
            }
        }
        throw new InvalidRequestException("Unknown conflict policy '" + name + "'; use overwrite, skip or newer.");
    }
}
