package dev.forge.memory.support;

import dev.forge.memory.InvalidKeyException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The four layers of plugin memory: the first segment of a {@link LayeredKey} ({@link #directory()}) and the
 * adapter's name for the layer ({@link #id()}).
 */
public enum Layer {
    /** Knowledge shared by every skill about one project: {@code projects/{project}/{fileType}}. */
    SHARED_PROJECT("projects", "shared-project"),
    /** What one skill learned about one project: {@code skills/{skill}/{project}/{fileType}}. */
    SKILL("skills", "skill-specific"),
    /** Command execution history of one project: {@code commands/{project}/{fileType}}. */
    COMMAND("commands", "command"),
    /** An agent's own notes, not tied to a project: {@code agents/{agent}/{fileType}}. */
    AGENT("agents", "agent");

    private final String directory;
    private final String id;

    Layer(String directory, String id) {
        this.directory = directory;
        this.id = id;
    }

    /** The first key segment (the directory under {@code memory/}), e.g. {@code skills}. */
    public String directory() {
        return directory;
    }

    /** The adapter's name of the layer, e.g. {@code skill-specific}. */
    public String id() {
        return id;
    }

    /**
     * The layer named by its id ({@code shared-project}), its directory ({@code projects}) or its enum name
     * ({@code SHARED_PROJECT}), ignoring case.
     *
     * @throws InvalidKeyException for any other name, listing the known ones
     */
    public static Layer of(String name) {
        for (Layer layer : values()) {
            if (layer.id.equalsIgnoreCase(name) || layer.directory.equalsIgnoreCase(name)
                    || layer.name().equalsIgnoreCase(name.replace('-', '_'))) {
                return layer;
            }
        }
        throw new InvalidKeyException("Unknown memory layer '" + name + "': use one of "
                + Arrays.stream(values()).map(l -> l.id + " (" + l.directory + ")").collect(Collectors.joining(", ")) + ".");
    }

    /** The layer whose {@link #directory()} is {@code directory}, matched exactly (keys are case-sensitive). */
    static java.util.Optional<Layer> byDirectory(String directory) {
        return Arrays.stream(values()).filter(l -> l.directory.equals(directory)).findFirst();
    }
}
