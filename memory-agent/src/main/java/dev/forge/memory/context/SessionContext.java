package dev.forge.memory.context;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.context.internal.PageLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * The session-context pattern: what an agent reads when a session starts: the most recently updated PROJECT memories
 * and the most recent learnings ({@code learning:*} in GLOBAL).
 *
 * @param recentProject the newest PROJECT memories, newest first
 * @param learnings     the newest learnings, newest first
 */
public record SessionContext(List<MemoryEntry> recentProject, List<MemoryEntry> learnings) {

    /** How many PROJECT memories {@link #load(MemoryProvider)} reads. */
    public static final int DEFAULT_PROJECT = 10;
    /** How many learnings {@link #load(MemoryProvider)} reads. */
    public static final int DEFAULT_LEARNINGS = 5;

    /** Copies the lists. */
    public SessionContext {
        recentProject = List.copyOf(recentProject);
        learnings = List.copyOf(learnings);
    }

    /** The {@value #DEFAULT_PROJECT} newest PROJECT memories and the {@value #DEFAULT_LEARNINGS} newest learnings. */
    public static SessionContext load(MemoryProvider provider) {
        return load(provider, DEFAULT_PROJECT, DEFAULT_LEARNINGS);
    }

    /** The {@code project} newest PROJECT memories and the {@code learnings} newest learnings (each at least 1). */
    public static SessionContext load(MemoryProvider provider, int project, int learnings) {
        List<MemoryEntry> recent = provider.query(Query.builder().scopes(Scope.PROJECT)
                .order(Query.Order.UPDATED_DESC).limit(project).build());
        List<MemoryEntry> learnt = provider.query(Query.builder().pattern(LearningCapture.PREFIX + "*")
                .scopes(Scope.GLOBAL).order(Query.Order.UPDATED_DESC).limit(learnings).build());
        return new SessionContext(recent, learnt);
    }

    /**
     * These memories as prompt context (project memories first, then learnings), laid out as {@link ContextLoader}
     * does.
     *
     * @throws dev.forge.memory.InvalidRequestException if the budget cannot hold one memory's heading line
     */
    public ContextPages pages(int budget, TokenEstimator estimator) {
        List<MemoryEntry> all = new ArrayList<>(recentProject);
        all.addAll(learnings);
        return PageLayout.layout(all, budget, estimator);
    }
}
