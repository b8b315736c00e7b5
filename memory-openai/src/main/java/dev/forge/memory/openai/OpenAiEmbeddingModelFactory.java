package dev.forge.memory.openai;

import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.openai.internal.OpenAiEmbeddingModel;
import dev.forge.memory.openai.internal.OpenAiHttp;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.support.ConfiguredModelFactory;
import dev.forge.memory.support.TimeSpan;
import java.time.Duration;

/**
 * The {@code openai} model: any service that speaks OpenAI's {@code POST /v1/embeddings} protocol (OpenAI itself,
 * Ollama, vLLM, LM Studio, llama.cpp's server, LocalAI...), over {@code java.net.http}.
 *
 * <pre>{@code
 * embedding:
 *   model: openai
 *   url: http://localhost:11434/v1      # base URL; requests go to <url>/embeddings; default https://api.openai.com/v1
 *   remote_model: nomic-embed-text      # the service's model name (required)
 *   api_key: "${OPENAI_API_KEY}"        # optional; sent as "Authorization: Bearer ..."
 *   dimension: 768                      # optional; if absent, asked of the service once when the model opens
 *   batch_size: 64                      # texts per request
 *   timeout: 30s                        # connect and response timeout of one request
 *   max_retries: 3                      # retries after 429, 5xx, connection failures and timeouts
 *   retry_backoff: 500ms                # first wait; doubles each retry; a Retry-After header wins
 *   send_encoding_format: true          # send "encoding_format": "float"; turn off for servers that reject it
 * }</pre>
 *
 * <p>Vectors are scaled to unit length; texts that are empty or only spaces get the zero vector without a request
 * (services reject empty input). Redirects are not followed, so the key never goes to another host.
 *
 * <p>The key, and a {@code url} or {@code remote_model} that came from a secret-looking variable (such as
 * {@code url: "https://embeddings.example.com/${EMBEDDINGS_TOKEN}/v1"}), never appear in error messages, logs or the
 * fingerprint: a secret {@code url} reads {@code ****} there (so the token in it can be rotated without a reindex), a
 * secret {@code remote_model} reads {@code ****} in messages and as a one-way hash in the fingerprint (so another
 * model still needs a reindex).
 */
public final class OpenAiEmbeddingModelFactory extends ConfiguredModelFactory<OpenAiEmbeddingModelFactory.Settings> {

    /** The name config chooses this model by. */
    public static final String NAME = "openai";

    /** Does nothing; see {@link #open}. */
    public OpenAiEmbeddingModelFactory() {
        super(NAME, Settings.class, "A remote model over OpenAI's /v1/embeddings protocol (OpenAI, Ollama, vLLM, LM Studio).");
    }

    /**
     * Opens the client. Without {@code dimension} it sends one request to learn the dimension.
     *
     * @throws ConfigurationException       for an unknown setting or a bad value
     * @throws dev.forge.memory.embedding.EmbeddingServiceException    if the dimension must be learnt and the service cannot give it
     */
    @Override
    protected EmbeddingModel open(Settings settings, ProviderConfig raw) {
        return OpenAiEmbeddingModel.open(settings, OpenAiEmbeddingModel.Secrets.of(raw));
    }

    /**
     * The model's settings.
     *
     * @param url                the base URL, http or https, without credentials, query or fragment; requests go to
     *                           {@code <url>/embeddings}; default {@code https://api.openai.com/v1}
     * @param remoteModel        the model name the service knows (required); called {@code remote_model} because
     *                           {@code model} chooses this factory
     * @param apiKey             the key sent as a bearer token, or {@code null} (or blank) to send none
     * @param dimension          the number of components the service returns, 1 to 65536; {@code null} to ask the
     *                           service when the model opens
     * @param batchSize          texts per request, 1 to 2048; default 64
     * @param timeout            the connect timeout and the response timeout of each request, more than zero; default
     *                           30 s
     * @param maxRetries         retries of a request after 429, 5xx, a connection failure or a timeout, 0 to 20;
     *                           default 3
     * @param retryBackoff       the wait before the first retry, doubled for each further one (at most 60 s); a
     *                           {@code Retry-After} header replaces it; default 500 ms
     * @param sendEncodingFormat whether requests say {@code "encoding_format": "float"}; default true
     */
    public record Settings(String url, String remoteModel, String apiKey, Integer dimension, Integer batchSize,
                           TimeSpan timeout, Integer maxRetries, TimeSpan retryBackoff, Boolean sendEncodingFormat) {

        /** The default base URL. */
        public static final String DEFAULT_URL = "https://api.openai.com/v1";

        /** Fills in defaults and checks every value. */
        public Settings {
            url = checkUrl(url == null ? DEFAULT_URL : url.trim());
            if (remoteModel == null || remoteModel.isBlank()) {
                throw new ConfigurationException("The openai embedding model needs 'remote_model': the name of the "
                        + "model on the service, e.g. text-embedding-3-small or nomic-embed-text.");
            }
            remoteModel = remoteModel.trim();
            if (apiKey != null && apiKey.isBlank()) {
                apiKey = null;
            }
            if (dimension != null && (dimension < 1 || dimension > 65536)) {
                throw new ConfigurationException("'dimension' of the openai model must be 1 to 65536, not " + dimension + ".");
            }
            if (batchSize == null) {
                batchSize = 64;
            } else if (batchSize < 1 || batchSize > 2048) {
                throw new ConfigurationException("'batch_size' of the openai model must be 1 to 2048, not " + batchSize + ".");
            }
            if (timeout == null) {
                timeout = new TimeSpan(Duration.ofSeconds(30));
            } else if (timeout.duration().isZero()) {
                throw new ConfigurationException("'timeout' of the openai model must be more than zero.");
            }
            if (maxRetries == null) {
                maxRetries = 3;
            } else if (maxRetries < 0 || maxRetries > 20) {
                throw new ConfigurationException("'max_retries' of the openai model must be 0 to 20, not " + maxRetries + ".");
            }
            if (retryBackoff == null) {
                retryBackoff = new TimeSpan(Duration.ofMillis(500));
            }
            if (sendEncodingFormat == null) {
                sendEncodingFormat = true;
            }
        }

        private static String checkUrl(String url) {
            return OpenAiHttp.checkBaseUrl(url, "the openai model", "/embeddings");
        }

        /** Says whether a key is set, never the key. */
        @Override
        public String toString() {
            return "Settings[url=" + url + ", remote_model=" + remoteModel + ", api_key=" + (apiKey == null ? "none" : "***")
                    + ", dimension=" + dimension + ", batch_size=" + batchSize + ", timeout=" + timeout
                    + ", max_retries=" + maxRetries + ", retry_backoff=" + retryBackoff
                    + ", send_encoding_format=" + sendEncodingFormat + "]";
        }
    }
}
