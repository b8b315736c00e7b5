package dev.forge.memory;

import java.util.Optional;

/**
 * Configuration is invalid: malformed YAML, an unknown or misspelled key, a value of the wrong type,
 * two providers with one name. Says where (file and field) when known.
 */
public class ConfigurationException extends MemoryException {
    private static final long serialVersionUID = 1L;

    /** The file or other origin, or null. */
    private final String source;
    /** The dotted path of the field, or null. */
    private final String field;

    /** An error not tied to one file or field. */
    public ConfigurationException(String message) {
        this(message, null, null, null);
    }

    /**
     * An error in {@code field} of {@code source}.
     *
     * @param message what is wrong and what to do
     * @param source  the file or other origin of the configuration, or {@code null}
     * @param field   the dotted path of the offending field, or {@code null}
     * @param cause   the parser's exception, or {@code null}
     */
    public ConfigurationException(String message, String source, String field, Throwable cause) {
        super(message, cause);
        this.source = source;
        this.field = field;
    }

    /** The file or other origin of the bad configuration, when known. */
    public Optional<String> source() {
        return Optional.ofNullable(source);
    }

    /** The dotted path of the bad field, when known. */
    public Optional<String> field() {
        return Optional.ofNullable(field);
    }
}
