package dev.forge.memory;

import java.util.List;

/** No provider of the requested name was found; the message lists the ones that were. */
public class UnknownProviderException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    /** The name asked for. */
    private final String requested;
    /** The names found. */
    private final List<String> available;

    /**
     * @param requested the name asked for
     * @param available the names found on the class path
     * @param problems  factories that failed to load, which may be the one asked for
     */
    public UnknownProviderException(String requested, List<String> available, List<String> problems) {
        super("No memory provider named '" + requested + "'. Found: "
                + (available.isEmpty() ? "none" : String.join(", ", available))
                + ". Is the provider's jar on the class path (or in .forge/plugins)?"
                + (problems.isEmpty() ? "" : " Factories that failed to load: " + String.join("; ", problems)),
                null, "memory.provider", null);
        this.requested = requested;
        this.available = List.copyOf(available);
    }

    /** The name that was asked for. */
    public String requested() {
        return requested;
    }

    /** The provider names that were found. */
    public List<String> available() {
        return available;
    }
}
