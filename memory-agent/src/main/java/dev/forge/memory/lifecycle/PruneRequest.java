package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Which documents {@link PluginMemory#prune(PruneRequest)} looks at, and whether it writes.
 *
 * @param project only documents of this project (shared, skill and command layers; agents have no project)
 * @param skill   only documents of this skill
 * @param dryRun  report what would be done, write nothing
 */
public record PruneRequest(Optional<String> project, Optional<String> skill, boolean dryRun) {

    /** Checks for nulls. */
    public PruneRequest {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(skill, "skill");
    }

    /** Every layered document. */
    public static PruneRequest all() {
        return new PruneRequest(Optional.empty(), Optional.empty(), false);
    }

    /** Every document of one project: {@code projects/P/...}, {@code skills/(any)/P/...}, {@code commands/P/...}. */
    public static PruneRequest project(String project) {
        return new PruneRequest(Optional.of(project), Optional.empty(), false);
    }

    /** Every document of one skill, all projects: {@code skills/S/*}. */
    public static PruneRequest skill(String skill) {
        return new PruneRequest(Optional.empty(), Optional.of(skill), false);
    }

    /** The documents of one skill for one project: {@code skills/S/P/*}. */
    public static PruneRequest skill(String skill, String project) {
        return new PruneRequest(Optional.of(project), Optional.of(skill), false);
    }

    /** This request as a dry run (or not). */
    public PruneRequest withDryRun(boolean dryRun) {
        return new PruneRequest(project, skill, dryRun);
    }

    /** Whether the document of {@code key} is in this request's range. */
    public boolean covers(LayeredKey key) {
        if (skill.isPresent() && !skill.equals(key.skill())) {
            return false;
        }
        return project.isEmpty() || project.equals(key.project());
    }
}
