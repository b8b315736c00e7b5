package dev.forge.memory;

import java.util.Objects;

/**
 * A provider's vectors were made by another embedding model than the one it is configured with: vectors of two
 * models cannot be compared, so the provider refuses to open. Either configure the model that built the index, or
 * rebuild the index with the new one ({@code forge-memory reindex}, or {@link Reindexing} from a provider opened with
 * {@link dev.forge.memory.spi.ProviderContext#openForReindex()}).
 */
public class IndexModelMismatchException extends ConfigurationException {
    private static final long serialVersionUID = 1L;

    private final String indexFingerprint;
    private final String configuredFingerprint;

    /**
     * A mismatch found when opening the index at {@code location}.
     *
     * @param provider              the provider's name
     * @param location              where the index is (a directory, a database), for the message
     * @param indexFingerprint      the fingerprint recorded with the index
     * @param configuredFingerprint the fingerprint of the configured model
     * @param source                the config file naming the model, or {@code null}
     * @param field                 the dotted path of the model's config block, or {@code null}
     */
    public IndexModelMismatchException(String provider, String location, String indexFingerprint,
            String configuredFingerprint, String source, String field) {
        super("The " + provider + " index at " + location + " was built with the embedding model of fingerprint '"
                + indexFingerprint + "', but the configured model has fingerprint '" + configuredFingerprint
                + "'; vectors of different models cannot be compared. Configure the model that built the index, or "
                + "rebuild the index with the new model: forge-memory reindex", source, field, null);
        this.indexFingerprint = Objects.requireNonNull(indexFingerprint, "indexFingerprint");
        this.configuredFingerprint = Objects.requireNonNull(configuredFingerprint, "configuredFingerprint");
    }

    /** The fingerprint recorded with the index. */
    public String indexFingerprint() {
        return indexFingerprint;
    }

    /** The fingerprint of the configured model. */
    public String configuredFingerprint() {
        return configuredFingerprint;
    }
}
