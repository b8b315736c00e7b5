package dev.forge.memory.support;

import java.util.Objects;

/** The fixed name and one-sentence description every service factory of the toolkit's bases carries. */
abstract class NamedFactory {

    private final String name;
    private final String description;

    NamedFactory(String name, String description) {
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
    }

    /** The name config chooses this factory's product by. */
    public final String name() {
        return name;
    }

    /** One sentence for listings. */
    public final String description() {
        return description;
    }
}
