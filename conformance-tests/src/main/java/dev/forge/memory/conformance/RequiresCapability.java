package dev.forge.memory.conformance;

import dev.forge.memory.Capability;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a contract test (or every test of a contract class) only where the provider reports the capability;
 * elsewhere the test is skipped with the reason.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Inherited
public @interface RequiresCapability {
    /** The capability the test needs. */
    Capability value();
}
