package dev.forge.memory.lifecycle;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Every layered document of one project, as {@link PluginMemory#getByProject(String)} returns it.
 *
 * @param project  the project
 * @param shared   its shared project documents, in key order
 * @param skills   its skill documents by skill name, skills in name order, documents in key order
 * @param commands its command documents, in key order
 */
public record ProjectMemory(String project, List<MemoryDocument> shared, Map<String, List<MemoryDocument>> skills,
                            List<MemoryDocument> commands) {

    /** Copies the lists and the map, keeping the skills sorted by name. */
    public ProjectMemory {
        Objects.requireNonNull(project, "project");
        shared = List.copyOf(shared);
        TreeMap<String, List<MemoryDocument>> sorted = new TreeMap<>();
        skills.forEach((skill, documents) -> sorted.put(skill, List.copyOf(documents)));
        skills = Collections.unmodifiableMap(sorted);
        commands = List.copyOf(commands);
    }

    /** Whether the project has no document at all. */
    public boolean isEmpty() {
        return shared.isEmpty() && skills.isEmpty() && commands.isEmpty();
    }
}
