package dev.forge.memory.conformance;

import dev.forge.memory.Capability;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a contract test (or every test of a contract class) only where the provider reports the capability;
 * elsewhere the test is skipped with the reason. Repeat it to require several; a method's requirements add
 * to its class's.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Inherited
@Repeatable(RequiresCapability.List.class)
public @interface RequiresCapability {
    /** The capability the test needs. */
    Capability value();

    /** The container that makes {@link RequiresCapability} repeatable. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    @Inherited
    @interface List {
        /** The repeated annotations. */
        RequiresCapability[] value();
    }
}
