package dev.forge.memory.markdown.internal;

import dev.forge.memory.support.LayeredKey;
import java.util.Locale;
import java.util.Optional;

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
 * The keys are those {@link LayeredKey#parse} accepts: every segment after the first is a letter or digit, then
 * letters, digits, {@code .}, {@code _} or {@code -}, at most {@value LayeredKey#MAX_SEGMENT_LENGTH} characters,
 * without {@code ..} and not ending in {@code .}; the file type is not one of the plugin's structural files
 * ({@code index}, {@code lifecycle}, {@code quality_guidance}, in any case). So the
 * document path is the key plus {@code .md}: injective, relative, without {@code ..} and with {@code /} as the only
 * separator. Other keys have no document.
 */
final class LayeredPaths {

    /** The suffix of a document. */
    static final String SUFFIX = ".md";

    private LayeredPaths() {
    }

    /** Whether {@code key} is a layered key ({@link LayeredKey}'s rules), and so has a document. */
    static boolean isLayered(String key) {
        return LayeredKey.parse(key).isPresent();
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
        return lower.endsWith(SUFFIX)
                && LayeredKey.STRUCTURAL_NAMES.contains(lower.substring(0, lower.length() - SUFFIX.length()));
    }
}
