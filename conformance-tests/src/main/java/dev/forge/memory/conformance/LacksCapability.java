package dev.forge.memory.conformance;

import dev.forge.memory.Capability;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a contract test only where the provider does not report the capability: the tests that check a
 * missing capability is refused cleanly. Elsewhere the test is skipped with the reason.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface LacksCapability {
    /** The capability the provider must lack. */
    Capability value();
}
