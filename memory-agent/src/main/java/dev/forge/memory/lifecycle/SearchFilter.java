package dev.forge.memory.lifecycle;

import dev.forge.memory.support.Layer;
import dev.forge.memory.support.LayeredKey;
import java.util.Objects;
import java.util.Optional;

/**
 * Which documents {@link PluginMemory#search(String, SearchFilter)} looks in.
 *
 * @param layer   only this layer
 * @param project only documents of this project (agent documents have no project, so they are left out)
 */
public record SearchFilter(Optional<Layer> layer, Optional<String> project) {

    /** Checks for nulls. */
    public SearchFilter {
        Objects.requireNonNull(layer, "layer");
        Objects.requireNonNull(project, "project");
    }

    /** Every layered document. */
    public static SearchFilter all() {
        return new SearchFilter(Optional.empty(), Optional.empty());
    }

    /** The documents of one layer. */
    public static SearchFilter layer(Layer layer) {
        return new SearchFilter(Optional.of(layer), Optional.empty());
    }

    /** The documents of one project, in every layer that has projects. */
    public static SearchFilter project(String project) {
        return new SearchFilter(Optional.empty(), Optional.of(project));
    }

    /** This filter restricted to {@code project} as well. */
    public SearchFilter andProject(String project) {
        return new SearchFilter(layer, Optional.of(project));
    }

    /** Whether the document of {@code key} passes. */
    public boolean accepts(LayeredKey key) {
        return layer.map(l -> l == key.layer()).orElse(true) && (project.isEmpty() || project.equals(key.project()));
    }
}
