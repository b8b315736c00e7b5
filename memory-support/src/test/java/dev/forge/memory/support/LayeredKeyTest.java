package dev.forge.memory.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.InvalidKeyException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The adapter's path tables, one assertion per row: the key is the path under memory/ without .md. */
class LayeredKeyTest {

    private static String path(LayeredKey key) {
        return "memory/" + key.key() + ".md";
    }

    @Test
    void shared_project_paths_are_the_adapters() {
        assertThat(path(LayeredKey.sharedProject("my-api", "project_profile"))).isEqualTo("memory/projects/my-api/project_profile.md");
        assertThat(path(LayeredKey.sharedProject("my-api", "technology_stack"))).isEqualTo("memory/projects/my-api/technology_stack.md");
        assertThat(path(LayeredKey.sharedProject("e-commerce", "cross_skill_insights")))
                .isEqualTo("memory/projects/e-commerce/cross_skill_insights.md");
    }

    @Test
    void skill_paths_are_the_adapters() {
        assertThat(path(LayeredKey.skill("python-code-review", "my-api", "project_overview")))
                .isEqualTo("memory/skills/python-code-review/my-api/project_overview.md");
        assertThat(path(LayeredKey.skill("python-code-review", "my-api", "review_history")))
                .isEqualTo("memory/skills/python-code-review/my-api/review_history.md");
        assertThat(path(LayeredKey.skill("generate-python-unit-tests", "my-api", "testing_patterns")))
                .isEqualTo("memory/skills/generate-python-unit-tests/my-api/testing_patterns.md");
        assertThat(path(LayeredKey.skill("dotnet-code-review", "e-commerce", "known_issues")))
                .isEqualTo("memory/skills/dotnet-code-review/e-commerce/known_issues.md");
    }

    @Test
    void command_and_agent_paths_are_the_adapters() {
        assertThat(path(LayeredKey.command("my-api", "command_history"))).isEqualTo("memory/commands/my-api/command_history.md");
        assertThat(path(LayeredKey.command("my-api", "analyze_insights"))).isEqualTo("memory/commands/my-api/analyze_insights.md");
        assertThat(path(LayeredKey.agent("hephaestus", "forge_insights"))).isEqualTo("memory/agents/hephaestus/forge_insights.md");
        assertThat(path(LayeredKey.agent("prometheus", "strategic_notes"))).isEqualTo("memory/agents/prometheus/strategic_notes.md");
    }

    @Test
    void parse_gives_back_every_layer_and_its_names() {
        LayeredKey skill = LayeredKey.parse("skills/python-code-review/my-api/review_history").orElseThrow();
        assertThat(skill).isEqualTo(LayeredKey.skill("python-code-review", "my-api", "review_history"));
        assertThat(skill.layer()).isEqualTo(Layer.SKILL);
        assertThat(skill.skill()).contains("python-code-review");
        assertThat(skill.project()).contains("my-api");
        assertThat(skill.agent()).isEmpty();
        assertThat(skill.directory()).isEqualTo("skills/python-code-review/my-api");
        assertThat(skill.sibling("review_history_archive").key()).isEqualTo("skills/python-code-review/my-api/review_history_archive");
        assertThat(LayeredKey.parse("projects/my-api/project_profile")).contains(LayeredKey.sharedProject("my-api", "project_profile"));
        assertThat(LayeredKey.parse("commands/my-api/command_history")).contains(LayeredKey.command("my-api", "command_history"));
        LayeredKey agent = LayeredKey.parse("agents/hephaestus/forge_insights").orElseThrow();
        assertThat(agent.agent()).contains("hephaestus");
        assertThat(agent.project()).isEmpty();
    }

    @Test
    void parse_ignores_keys_that_are_not_layered() {
        for (String key : new String[] {"notes/x", "projects", "projects/my-api", "projects/my-api/a/b", "skills/s/p",
                "projects/../x", "projects/my-api/index", "projects/my-api/lifecycle", "skills/s/p/quality_guidance",
                "agents/a/b/c", "Projects/my-api/x", "projects//x", "projects/.hidden/x", "projects/my api/x"}) {
            assertThat(LayeredKey.parse(key)).as(key).isEqualTo(Optional.empty());
        }
    }

    @Test
    void unsafe_or_structural_names_are_refused_with_a_typed_error() {
        assertThatThrownBy(() -> LayeredKey.sharedProject("..", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("project name '..' is not a safe file name");
        assertThatThrownBy(() -> LayeredKey.sharedProject("a..b", "x")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> LayeredKey.skill("a/b", "p", "x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("skill name 'a/b'");
        assertThatThrownBy(() -> LayeredKey.command("", "x")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> LayeredKey.agent("-agent", "x")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> LayeredKey.agent("a", "x".repeat(LayeredKey.MAX_SEGMENT_LENGTH + 1))).isInstanceOf(InvalidKeyException.class);
        assertThat(LayeredKey.agent("a", "x".repeat(LayeredKey.MAX_SEGMENT_LENGTH)).fileType()).hasSize(LayeredKey.MAX_SEGMENT_LENGTH);
        assertThatThrownBy(() -> LayeredKey.skill("s", "p", "index")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("'index' is a structural file");
        assertThatThrownBy(() -> LayeredKey.command("p", "quality_guidance")).isInstanceOf(InvalidKeyException.class);
    }

    @Test
    void of_explains_what_is_wrong_with_a_key() {
        assertThatThrownBy(() -> LayeredKey.of("notes/x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("must start with projects/, skills/, commands/ or agents/");
        assertThatThrownBy(() -> LayeredKey.of("skills/s/x")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("skills/{skill}/{project}/{fileType}");
        assertThat(LayeredKey.of("agents/hephaestus/forge_insights")).isEqualTo(LayeredKey.agent("hephaestus", "forge_insights"));
    }

    @Test
    void layers_are_found_by_adapter_id_directory_or_name() {
        assertThat(Layer.of("shared-project")).isEqualTo(Layer.SHARED_PROJECT);
        assertThat(Layer.of("skills")).isEqualTo(Layer.SKILL);
        assertThat(Layer.of("command")).isEqualTo(Layer.COMMAND);
        assertThat(Layer.of("AGENT")).isEqualTo(Layer.AGENT);
        assertThat(Layer.of("skill-specific").directory()).isEqualTo("skills");
        assertThatThrownBy(() -> Layer.of("tools")).isInstanceOf(InvalidKeyException.class)
                .hasMessageContaining("Unknown memory layer 'tools'").hasMessageContaining("shared-project (projects)");
    }
}
