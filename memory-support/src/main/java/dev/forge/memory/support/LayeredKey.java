package dev.forge.memory.support;

import dev.forge.memory.support.Layer;
import dev.forge.memory.InvalidKeyException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The key of one plugin memory document. The key is the document's path under {@code memory/} without
 * {@code .md}:
 * <ul>
 *   <li>{@link Layer#SHARED_PROJECT}: {@code projects/{project}/{fileType}}</li>
 *   <li>{@link Layer#SKILL}: {@code skills/{skill}/{project}/{fileType}}</li>
 *   <li>{@link Layer#COMMAND}: {@code commands/{project}/{fileType}}</li>
 *   <li>{@link Layer#AGENT}: {@code agents/{agent}/{fileType}}</li>
 * </ul>
 * Every segment is a safe file name: {@code [A-Za-z0-9][A-Za-z0-9._-]*}, at most {@value #MAX_SEGMENT_LENGTH}
 * characters, without {@code ..}. The file type must not be a structural name ({@code index}, {@code lifecycle},
 * {@code quality_guidance}).
 *
 * @param layer    the layer
 * @param skill    the skill name, present exactly for {@link Layer#SKILL}
 * @param agent    the agent name, present exactly for {@link Layer#AGENT}
 * @param project  the project name, present for every layer but {@link Layer#AGENT}
 * @param fileType the document's name, e.g. {@code review_history}
 */
public record LayeredKey(Layer layer, Optional<String> skill, Optional<String> agent, Optional<String> project, String fileType) {

    /** The longest segment accepted. */
    public static final int MAX_SEGMENT_LENGTH = 100;

    /** File names that describe the memory system rather than hold memory; never a document's file type. */
    public static final Set<String> STRUCTURAL_NAMES = Set.of("index", "lifecycle", "quality_guidance");

    private static final java.util.Map<Layer, String> LAYOUTS = java.util.Map.of(
            Layer.SHARED_PROJECT, "projects/{project}/{fileType}",
            Layer.SKILL, "skills/{skill}/{project}/{fileType}",
            Layer.COMMAND, "commands/{project}/{fileType}",
            Layer.AGENT, "agents/{agent}/{fileType}");

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /**
     * Checks every segment and that the names present fit the layer.
     *
     * @throws InvalidKeyException if a segment is not a safe file name, the file type is structural, or a name the
     *                             layer needs is missing (or one it does not have is given)
     */
    public LayeredKey {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(skill, "skill");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(fileType, "fileType");
        if (skill.isPresent() != (layer == Layer.SKILL) || agent.isPresent() != (layer == Layer.AGENT)
                || project.isPresent() == (layer == Layer.AGENT)) {
            throw new InvalidKeyException("A " + layer.id() + " memory key needs " + needs(layer) + ".");
        }
        skill.ifPresent(s -> checkSegment(s, "skill name"));
        agent.ifPresent(a -> checkSegment(a, "agent name"));
        project.ifPresent(p -> checkSegment(p, "project name"));
        checkSegment(fileType, "file type");
        if (STRUCTURAL_NAMES.contains(fileType.toLowerCase(java.util.Locale.ROOT))) {
            throw new InvalidKeyException("'" + fileType + "' is a structural file of the memory system, not a memory "
                    + "document: choose another file type than " + STRUCTURAL_NAMES.stream().sorted().toList() + ".");
        }
    }

    private static String needs(Layer layer) {
        return switch (layer) {
            case SHARED_PROJECT, COMMAND -> "a project name and a file type only";
            case SKILL -> "a skill name, a project name and a file type";
            case AGENT -> "an agent name and a file type only";
        };
    }

    /**
     * Checks one name (skill, project, agent, file type) against the segment rules.
     *
     * @throws dev.forge.memory.InvalidKeyException naming {@code what} if it breaks them
     */
    public static void checkSegment(String segment, String what) {
        if (segment.length() > MAX_SEGMENT_LENGTH || !SEGMENT.matcher(segment).matches() || segment.contains("..")
                || segment.endsWith(".")) {
            throw new InvalidKeyException("The " + what + " '" + abbreviate(segment) + "' is not a safe file name: use 1 to "
                    + MAX_SEGMENT_LENGTH + " letters, digits, '.', '_' or '-', starting with a letter or digit, without '..' "
                    + "and not ending in '.' (which Windows drops).");
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }

    /** The document {@code projects/{project}/{fileType}}. */
    public static LayeredKey sharedProject(String project, String fileType) {
        return new LayeredKey(Layer.SHARED_PROJECT, Optional.empty(), Optional.empty(), Optional.of(project), fileType);
    }

    /** The document {@code skills/{skill}/{project}/{fileType}}. */
    public static LayeredKey skill(String skill, String project, String fileType) {
        return new LayeredKey(Layer.SKILL, Optional.of(skill), Optional.empty(), Optional.of(project), fileType);
    }

    /** The document {@code commands/{project}/{fileType}}. */
    public static LayeredKey command(String project, String fileType) {
        return new LayeredKey(Layer.COMMAND, Optional.empty(), Optional.empty(), Optional.of(project), fileType);
    }

    /** The document {@code agents/{agent}/{fileType}}. */
    public static LayeredKey agent(String agent, String fileType) {
        return new LayeredKey(Layer.AGENT, Optional.empty(), Optional.of(agent), Optional.empty(), fileType);
    }

    /**
     * The layered key spelled by {@code key}, or empty when {@code key} is not one (another layout, a bad segment,
     * a structural file type). Never throws for a non-null key.
     */
    public static Optional<LayeredKey> parse(String key) {
        try {
            return Optional.of(of(key));
        } catch (InvalidKeyException notLayered) {
            return Optional.empty();
        }
    }

    /**
     * The layered key spelled by {@code key}, e.g. {@code skills/python-code-review/my-api/review_history}.
     *
     * @throws InvalidKeyException saying what is wrong: an unknown layer, the wrong number of segments, a bad segment
     */
    public static LayeredKey of(String key) {
        List<String> parts = List.of(key.split("/", -1));
        Layer layer = Layer.byDirectory(parts.get(0)).orElseThrow(() -> new InvalidKeyException("'" + abbreviate(key)
                + "' is not a layered memory key: it must start with projects/, skills/, commands/ or agents/."));
        int expected = layer == Layer.SKILL ? 4 : 3;
        if (parts.size() != expected) {
            throw new InvalidKeyException("'" + abbreviate(key) + "' is not a " + layer.id() + " memory key: write "
                    + LAYOUTS.get(layer) + ".");
        }
        return switch (layer) {
            case SHARED_PROJECT -> sharedProject(parts.get(1), parts.get(2));
            case SKILL -> skill(parts.get(1), parts.get(2), parts.get(3));
            case COMMAND -> command(parts.get(1), parts.get(2));
            case AGENT -> agent(parts.get(1), parts.get(2));
        };
    }

    /** The provider key: the path under {@code memory/} without {@code .md}, e.g. {@code skills/s/p/review_history}. */
    public String key() {
        return directory() + "/" + fileType;
    }

    /** The key without the file type: the document's directory, e.g. {@code skills/s/p}. */
    public String directory() {
        StringBuilder b = new StringBuilder(layer.directory());
        skill.ifPresent(s -> b.append('/').append(s));
        agent.ifPresent(a -> b.append('/').append(a));
        project.ifPresent(p -> b.append('/').append(p));
        return b.toString();
    }

    /** The document {@code fileType} in the same directory, e.g. the archive next to a review history. */
    public LayeredKey sibling(String fileType) {
        return new LayeredKey(layer, skill, agent, project, fileType);
    }

    /** The key, as {@link #key()}. */
    @Override
    public String toString() {
        return key();
    }
}
