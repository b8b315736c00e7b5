package dev.forge.memory;

import java.util.Objects;

/** An operation needs a capability the provider does not have. Nothing was changed. */
public class UnsupportedCapabilityException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** The provider lacking the capability. */
    private final String provider;
    /** The missing capability. */
    private final Capability capability;

    /** The provider named {@code provider} lacks {@code capability}. */
    public UnsupportedCapabilityException(String provider, Capability capability) {
        super("The '" + provider + "' provider does not support " + capability
                + "; choose a provider that lists it under 'forge-memory providers', or a hybrid configuration.");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.capability = Objects.requireNonNull(capability, "capability");
    }

    /** The name of the provider that lacks the capability. */
    public String provider() {
        return provider;
    }

    /** The missing capability. */
    public Capability capability() {
        return capability;
    }
}
