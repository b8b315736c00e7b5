package dev.forge.memory.markdown.internal;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The keys of the layered layout and their documents: the Forge plugin's memory paths.
 *
 * <pre>
 * projects/{project}/{fileType}          -&gt; &lt;path&gt;/projects/{project}/{fileType}.md
 * skills/{skill}/{project}/{fileType}    -&gt; &lt;path&gt;/skills/{skill}/{project}/{fileType}.md
 * commands/{project}/{fileType}          -&gt; &lt;path&gt;/commands/{project}/{fileType}.md
 * agents/{agent}/{fileType}              -&gt; &lt;path&gt;/agents/{agent}/{fileType}.md
 * </pre>
 *
 * Every segment after the first is a letter or digit, then letters, digits, {@code .}, {@code _} or {@code -}, at
 * most {@value #MAX_SEGMENT_LENGTH} characters, without {@code ..} and not ending in {@code .}; the file type is
 * not one of the plugin's structural files ({@code index}, {@code lifecycle}, {@code quality_guidance}). So the
 * document path is the key plus {@code .md}: injective, relative, without {@code ..} and with {@code /} as the only
 * separator. Other keys have no document.
 */
final class LayeredPaths {

    /** The suffix of a document. */
    static final String SUFFIX = ".md";

    /** The longest segment: with {@code .md} it fits the 143 bytes eCryptfs allows for a file name. */
    static final int MAX_SEGMENT_LENGTH = 120;

    /** The plugin's structural files, never memories, at any depth (compared ignoring case). */
    static final Set<String> STRUCTURAL = Set.of("index", "lifecycle", "quality_guidance");

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private LayeredPaths() {
    }

    /** Whether {@code key} is a layered key, and so has a document. */
    static boolean isLayered(String key) {
        String[] parts = key.split("/", -1);
        int expected = switch (parts[0]) {
            case "projects", "commands", "agents" -> 3;
            case "skills" -> 4;
            default -> 0;
        };
        if (parts.length != expected) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            if (!isSegment(parts[i])) {
                return false;
            }
        }
        return !STRUCTURAL.contains(parts[parts.length - 1].toLowerCase(Locale.ROOT));
    }

    private static boolean isSegment(String segment) {
        return segment.length() <= MAX_SEGMENT_LENGTH && SEGMENT.matcher(segment).matches() && !segment.contains("..")
                && !segment.endsWith(".");
    }

    /** The document of a layered key, relative to the project directory, {@code /}-separated; empty for other keys. */
    static Optional<String> documentPath(String key) {
        return isLayered(key) ? Optional.of(key + SUFFIX) : Optional.empty();
    }

    /** The key whose document is at {@code relative} ({@code /}-separated); empty if it is not a layered path. */
    static Optional<String> keyOf(String relative) {
        if (!relative.endsWith(SUFFIX)) {
            return Optional.empty();
        }
        String key = relative.substring(0, relative.length() - SUFFIX.length());
        return isLayered(key) ? Optional.of(key) : Optional.empty();
    }

    /** Whether a file name is one of the plugin's structural files ({@code index.md} ...), which are not memories. */
    static boolean isStructural(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(SUFFIX) && STRUCTURAL.contains(lower.substring(0, lower.length() - SUFFIX.length()));
    }
}
