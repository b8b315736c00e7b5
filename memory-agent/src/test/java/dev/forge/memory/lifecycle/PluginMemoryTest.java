package dev.forge.memory.lifecycle;

import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.support.Layer;
import static dev.forge.memory.lifecycle.PolicyFixtures.review;
import static dev.forge.memory.lifecycle.PolicyFixtures.reviewNumbers;
import static dev.forge.memory.lifecycle.PolicyFixtures.reviews;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.StorageException;
import dev.forge.memory.ValueTooLargeException;
import dev.forge.memory.inmemory.InMemoryMemoryProvider;
import dev.forge.memory.inmemory.InMemoryStore;
import dev.forge.memory.spi.ProviderContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PluginMemory over the in-memory reference provider, with the adapter's worked examples as data. */
class PluginMemoryTest {

    private static final LocalDate TODAY = PolicyFixtures.TODAY;
    private static final String STAMP = "<!-- Last Updated: 2026-02-10 -->\n\n";
    private static final String OVERVIEW = "# Project Overview - My API\n\n## Framework\n- FastAPI 0.104";

    private final LayeredKey overview = LayeredKey.skill("python-code-review", "my-api", "project_overview");
    private final LayeredKey reviewHistory = LayeredKey.skill("python-code-review", "my-api", "review_history");
    private final LayeredKey archive = reviewHistory.sibling("review_history_archive");

    @TempDir
    Path dir;

    private MemoryProvider provider;
    private PluginMemory memory;

    private static Clock clockOn(LocalDate day) {
        return Clock.fixed(day.atTime(9, 30).toInstant(ZoneOffset.UTC), ZoneOffset.UTC);
    }

    @BeforeEach
    void open() {
        provider = new InMemoryMemoryProvider(new InMemoryStore(), ProviderContext.builder().projectId("p").sessionId("s")
                .clock(clockOn(TODAY)).baseDirectory(dir).build());
        memory = PluginMemory.builder(provider).clock(clockOn(TODAY)).build();
    }

    @AfterEach
    void close() {
        provider.close();
    }

    private PluginMemory on(LocalDate day) {
        return PluginMemory.builder(provider).clock(clockOn(day)).build();
    }

    private String stored(LayeredKey key) {
        return provider.get(key.key(), Scope.PROJECT).orElseThrow().value();
    }

    // ------------------------------------------------------------ create / read / update / append / delete

    @Test
    void create_writes_the_adapters_example_exactly() {
        WriteResult result = memory.create(overview, OVERVIEW);

        String expected = "<!-- Last Updated: 2026-02-10 -->\n\n# Project Overview - My API\n\n## Framework\n- FastAPI 0.104";
        assertThat(stored(overview)).isEqualTo(expected);
        assertThat(provider.get("skills/python-code-review/my-api/project_overview", Scope.PROJECT)).isPresent();
        assertThat(result.lineCount()).isEqualTo(6);
        assertThat(result.sizeWarning()).isEmpty();
        assertThat(result.pruned()).isFalse();
        assertThat(result.entry().version()).isEqualTo(1);

        MemoryDocument read = memory.read(overview).orElseThrow();
        assertThat(read.value()).isEqualTo(expected);
        assertThat(read.body()).isEqualTo(OVERVIEW);
        assertThat(read.lastUpdated()).contains(TODAY);
        assertThat(read.staleness()).isEqualTo(Staleness.FRESH);
        assertThat(read.daysSinceUpdate()).isEqualTo(OptionalLong.of(0));
        assertThat(read.lineCount()).isEqualTo(6);
        assertThat(read.advisory()).isEmpty();
    }

    @Test
    void create_of_an_existing_document_is_a_conflict_that_changes_nothing() {
        memory.create(overview, OVERVIEW);
        assertThatThrownBy(() -> memory.create(overview, "other")).isInstanceOf(ConflictException.class)
                .hasMessageContaining("'skills/python-code-review/my-api/project_overview' already exists: use update or append");
        assertThat(stored(overview)).isEqualTo(STAMP + OVERVIEW);
        assertThat(provider.get(overview.key(), Scope.PROJECT).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void update_replaces_or_prepends_the_stamp_and_keeps_tags_and_metadata() {
        assertThatThrownBy(() -> memory.update(overview, "x")).isInstanceOf(EntryNotFoundException.class)
                .hasMessageContaining("create it first");
        assertThat(provider.get(overview.key(), Scope.PROJECT)).isEmpty();

        provider.set(overview.key(), "no stamp yet\n", Scope.PROJECT, List.of("python"), Map.of("owner", "team-a"));
        memory.update(overview, "# New\n");
        MemoryEntry entry = provider.get(overview.key(), Scope.PROJECT).orElseThrow();
        assertThat(entry.value()).isEqualTo(STAMP + "# New\n");
        assertThat(entry.tags()).containsExactly("python");
        assertThat(entry.metadata()).isEqualTo(Map.of("owner", "team-a"));

        on(LocalDate.of(2026, 3, 1)).update(overview, "<!-- Last Updated: 2020-01-01 -->\n# Newer\n");
        assertThat(stored(overview)).isEqualTo("<!-- Last Updated: 2026-03-01 -->\n# Newer\n");
    }

    @Test
    void append_of_review_14_to_13_reviews_archives_1_to_3_as_in_the_adapters_example() {
        memory.create(reviewHistory, "# Review History\n\n" + reviews(1, 13));

        WriteResult result = memory.append(reviewHistory, review(14));

        assertThat(stored(reviewHistory)).isEqualTo(STAMP + "# Review History\n\n" + reviews(4, 14));
        assertThat(stored(archive)).isEqualTo(STAMP + reviews(1, 3));
        assertThat(reviewNumbers(stored(reviewHistory))).containsExactlyElementsOf(IntStream.rangeClosed(4, 14).boxed().toList());
        assertThat(result.pruned()).isTrue();
        assertThat(result.pruneActions()).extracting(PruneAction::kind).containsOnly(PruneAction.Kind.ARCHIVED).hasSize(3);
        assertThat(result.pruneDetails().orElseThrow()).startsWith("ARCHIVED: \"## Review #1 - 2026-01-01\" moved to "
                + "skills/python-code-review/my-api/review_history_archive");
        assertThat(result.lineCount()).isEqualTo(4 + 11 * 3);

        memory.append(reviewHistory, review(15));
        assertThat(stored(archive)).as("older reviews go to the end of the archive").isEqualTo(STAMP + reviews(1, 4));
        assertThat(stored(reviewHistory)).isEqualTo(STAMP + "# Review History\n\n" + reviews(5, 15));
        List<Integer> all = new ArrayList<>(reviewNumbers(stored(archive)));
        all.addAll(reviewNumbers(stored(reviewHistory)));
        assertThat(all).as("every review exactly once").containsExactlyElementsOf(IntStream.rangeClosed(1, 15).boxed().toList());
    }

    @Test
    void append_puts_content_on_a_line_of_its_own_and_needs_an_existing_document() {
        LayeredKey notes = LayeredKey.agent("hephaestus", "forge_insights");
        assertThatThrownBy(() -> memory.append(notes, "x")).isInstanceOf(EntryNotFoundException.class);
        on(LocalDate.of(2026, 1, 1)).create(notes, "- first");
        WriteResult result = memory.append(notes, "- second\n");
        assertThat(stored(notes)).isEqualTo(STAMP + "- first\n- second\n");
        assertThat(result.pruned()).isFalse();
        assertThat(result.pruneDetails()).isEmpty();
    }

    @Test
    void append_without_auto_pruning_keeps_every_review() {
        PluginMemory noPrune = PluginMemory.builder(provider).clock(clockOn(TODAY)).autoPrune(false).build();
        noPrune.create(reviewHistory, reviews(1, 13));
        assertThat(noPrune.append(reviewHistory, review(14)).pruned()).isFalse();
        assertThat(stored(reviewHistory)).isEqualTo(STAMP + reviews(1, 14));
        assertThat(provider.get(archive.key(), Scope.PROJECT)).isEmpty();
    }

    @Test
    void append_prunes_known_issues_too() {
        LayeredKey issues = LayeredKey.skill("dotnet-code-review", "e-commerce", "known_issues");
        memory.create(issues, "### N+1 Query in Order History\n**Status**: Resolved (2026-01-05)\n\n");
        WriteResult result = memory.append(issues, "### New Issue\n**Status**: Open (2026-02-10)\n");
        assertThat(stored(issues)).isEqualTo(STAMP + "### New Issue\n**Status**: Open (2026-02-10)\n");
        assertThat(result.pruneActions()).extracting(PruneAction::kind).containsExactly(PruneAction.Kind.REMOVED);
    }

    @Test
    void content_over_the_providers_limit_is_its_value_too_large_error_and_nothing_is_written() {
        memory.create(reviewHistory, reviews(1, 13));
        String huge = "x".repeat((int) provider.limits().maxValueBytes());
        assertThatThrownBy(() -> memory.append(reviewHistory, huge)).isInstanceOf(ValueTooLargeException.class);
        assertThat(stored(reviewHistory)).isEqualTo(STAMP + reviews(1, 13));
        assertThat(provider.get(archive.key(), Scope.PROJECT)).as("the archive is not written either").isEmpty();
        assertThatThrownBy(() -> memory.create(overview, huge)).isInstanceOf(ValueTooLargeException.class);
        assertThat(provider.get(overview.key(), Scope.PROJECT)).isEmpty();
    }

    @Test
    void without_transactions_a_crash_between_archive_and_main_duplicates_but_loses_nothing() {
        // create = write 1; append = archive (write 2), then main (write 3, which fails)
        PluginMemory crashing = PluginMemory.builder(new WithoutTransactions(provider, 2)).clock(clockOn(TODAY)).build();
        crashing.create(reviewHistory, reviews(1, 13));
        assertThatThrownBy(() -> crashing.append(reviewHistory, review(14))).isInstanceOf(StorageException.class);

        assertThat(stored(reviewHistory)).as("main document as before").isEqualTo(STAMP + reviews(1, 13));
        assertThat(stored(archive)).as("archive written first").isEqualTo(STAMP + reviews(1, 3));
        List<Integer> all = new ArrayList<>(reviewNumbers(stored(archive)));
        all.addAll(reviewNumbers(stored(reviewHistory)));
        assertThat(all).containsAll(IntStream.rangeClosed(1, 13).boxed().toList());
    }

    @Test
    void delete_removes_one_document_and_leaves_its_siblings() {
        memory.create(reviewHistory, reviews(1, 13));
        memory.prune(PruneRequest.all());
        assertThat(memory.delete(reviewHistory)).isTrue();
        assertThat(memory.delete(reviewHistory)).isFalse();
        assertThat(memory.read(reviewHistory)).isEmpty();
        assertThat(memory.read(archive)).isPresent();
    }

    // ------------------------------------------------------------ staleness and size

    @Test
    void staleness_comes_from_the_stamp_and_a_document_without_one_is_stale() {
        on(LocalDate.of(2025, 12, 1)).create(overview, OVERVIEW);
        MemoryDocument aging = memory.read(overview).orElseThrow();
        assertThat(aging.staleness()).isEqualTo(Staleness.AGING);
        assertThat(aging.daysSinceUpdate()).isEqualTo(OptionalLong.of(71));

        LayeredKey unstamped = LayeredKey.sharedProject("my-api", "technology_stack");
        provider.set(unstamped.key(), "# Stack\n- Python 3.12\n", Scope.PROJECT);
        MemoryDocument stale = memory.read(unstamped).orElseThrow();
        assertThat(stale.staleness()).isEqualTo(Staleness.STALE);
        assertThat(stale.lastUpdated()).isEmpty();
        assertThat(stale.daysSinceUpdate()).isEmpty();
        assertThat(stale.advisory()).contains("[POTENTIALLY STALE]");
        assertThat(stale.body()).isEqualTo("# Stack\n- Python 3.12\n");

        on(LocalDate.of(2026, 3, 1)).create(LayeredKey.command("my-api", "command_history"), "- future");
        MemoryDocument future = memory.read(LayeredKey.command("my-api", "command_history")).orElseThrow();
        assertThat(future.staleness()).as("a date in the future counts as fresh").isEqualTo(Staleness.FRESH);
        assertThat(future.daysSinceUpdate()).isEqualTo(OptionalLong.of(-19));
    }

    @Test
    void the_staleness_report_groups_every_layered_document() {
        on(LocalDate.of(2026, 2, 1)).create(LayeredKey.sharedProject("my-api", "project_profile"), "fresh\n");
        on(LocalDate.of(2025, 12, 1)).create(overview, "aging\n");
        on(LocalDate.of(2025, 10, 1)).create(LayeredKey.agent("prometheus", "strategic_notes"), "stale\n");
        provider.set("commands/my-api/command_history", "no stamp\n", Scope.PROJECT);
        provider.set("notes/not-layered", "ignored", Scope.PROJECT);
        provider.set("projects/my-api/index", "structural, ignored", Scope.PROJECT);
        memory.create(LayeredKey.skill("s", "p", "project_overview"), "line\n".repeat(201));

        StalenessReport report = memory.getStalenessReport();

        assertThat(report.today()).isEqualTo(TODAY);
        assertThat(report.fresh()).extracting(e -> e.key().key())
                .containsExactly("projects/my-api/project_profile", "skills/s/p/project_overview");
        StalenessEntry fresh = report.fresh().get(0);
        assertThat(fresh.lastUpdated()).contains(LocalDate.of(2026, 2, 1));
        assertThat(fresh.daysSinceUpdate()).isEqualTo(OptionalLong.of(9));
        assertThat(fresh.lineCount()).isEqualTo(3);
        assertThat(fresh.sizeWarning()).isEmpty();
        assertThat(report.fresh().get(1).sizeWarning()).contains(
                "project_overview has 203 lines, over the project_overview limit of 200: move detailed sections to separate files.");
        assertThat(report.aging()).extracting(e -> e.key().key()).containsExactly(overview.key());
        assertThat(report.aging().get(0).daysSinceUpdate()).isEqualTo(OptionalLong.of(71));
        assertThat(report.stale()).extracting(e -> e.key().key())
                .containsExactly("agents/prometheus/strategic_notes", "commands/my-api/command_history");
        assertThat(report.stale().get(0).daysSinceUpdate()).isEqualTo(OptionalLong.of(132));
        assertThat(report.stale().get(1).lastUpdated()).isEmpty();
        assertThat(report.all()).hasSize(5);
    }

    @Test
    void writes_over_a_size_limit_succeed_with_the_warning() {
        WriteResult result = memory.create(overview, "- line\n".repeat(199));
        assertThat(result.lineCount()).isEqualTo(201);
        assertThat(result.sizeWarning()).contains(
                "project_overview has 201 lines, over the project_overview limit of 200: move detailed sections to separate files.");
        assertThat(memory.read(overview).orElseThrow().sizeWarning()).isEqualTo(result.sizeWarning());
        assertThat(memory.update(overview, "- short\n").sizeWarning()).isEmpty();
    }

    // ------------------------------------------------------------ listings and search

    @Test
    void get_by_project_reads_the_shared_skill_and_command_layers_and_ignores_other_keys() {
        memory.create(LayeredKey.sharedProject("my-api", "project_profile"), "profile");
        memory.create(LayeredKey.sharedProject("my-api", "technology_stack"), "stack");
        memory.create(overview, OVERVIEW);
        memory.create(LayeredKey.skill("dotnet-code-review", "my-api", "known_issues"), "issues");
        memory.create(LayeredKey.skill("python-code-review", "e-commerce", "project_overview"), "other project");
        memory.create(LayeredKey.command("my-api", "command_history"), "history");
        memory.create(LayeredKey.agent("hephaestus", "forge_insights"), "insights");
        provider.set("projects/my-api/index", "structural", Scope.PROJECT);
        provider.set("projects/my-api/deep/nested", "not layered", Scope.PROJECT);
        provider.set("projects/my-api", "not layered", Scope.PROJECT);

        ProjectMemory project = memory.getByProject("my-api");

        assertThat(project.shared()).extracting(d -> d.key().fileType()).containsExactly("project_profile", "technology_stack");
        assertThat(project.skills().keySet()).containsExactly("dotnet-code-review", "python-code-review");
        assertThat(project.skills().get("python-code-review")).extracting(MemoryDocument::body).containsExactly(OVERVIEW);
        assertThat(project.commands()).extracting(MemoryDocument::body).containsExactly("history");
        assertThat(memory.getProjectProfile("my-api").orElseThrow().body()).isEqualTo("profile");
        assertThat(memory.getProjectProfile("e-commerce")).isEmpty();
        assertThat(memory.getSharedProjectMemory("my-api")).extracting(d -> d.key().key())
                .containsExactly("projects/my-api/project_profile", "projects/my-api/technology_stack");
        assertThat(memory.getSkillMemory("python-code-review", "e-commerce")).extracting(MemoryDocument::body).containsExactly("other project");
        assertThat(memory.getSkillMemory("python-code-review", "nothing-here")).isEmpty();
        assertThat(memory.getCommandMemory("my-api")).hasSize(1);
        assertThat(memory.getAgentMemory("hephaestus")).extracting(MemoryDocument::body).containsExactly("insights");
        assertThat(memory.getByProject("unknown").isEmpty()).isTrue();
    }

    @Test
    void search_returns_each_matching_line_with_two_lines_of_context() {
        memory.create(overview, OVERVIEW);
        memory.create(LayeredKey.sharedProject("my-api", "technology_stack"), "# Stack\n\n- Python 3.12\n- FastAPI 0.104\n- Postgres\n");
        memory.create(LayeredKey.agent("hephaestus", "forge_insights"), "FastAPI apps start fast\n");

        List<SearchMatch> matches = memory.search("fastapi", SearchFilter.project("my-api"));

        assertThat(matches).containsExactly(
                new SearchMatch(LayeredKey.sharedProject("my-api", "technology_stack"), 6,
                        "- FastAPI 0.104", List.of("", "- Python 3.12"), List.of("- Postgres")),
                new SearchMatch(overview, 6, "- FastAPI 0.104", List.of("", "## Framework"), List.of()));
        assertThat(matches.get(0).context()).isEqualTo("\n- Python 3.12\n- FastAPI 0.104\n- Postgres");

        assertThat(memory.search("fastapi")).extracting(m -> m.key().key()).containsExactly(
                "agents/hephaestus/forge_insights", "projects/my-api/technology_stack", overview.key());
        SearchMatch first = memory.search("^fastapi apps").get(0);
        assertThat(first.lineNumber()).isEqualTo(3);
        assertThat(first.before()).containsExactly("<!-- Last Updated: 2026-02-10 -->", "");
        assertThat(memory.search("Fast.PI \\d+\\.\\d+", SearchFilter.layer(Layer.SKILL))).extracting(SearchMatch::key).containsExactly(overview);
        assertThat(memory.search("postgres", SearchFilter.layer(Layer.SKILL))).isEmpty();
        assertThatThrownBy(() -> memory.search("([")).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("'([' is not a valid regular expression");
        assertThatThrownBy(() -> memory.search("")).isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void bad_names_in_listings_are_invalid_keys() {
        assertThatThrownBy(() -> memory.getSkillMemory("../x", "p")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> memory.getSharedProjectMemory("a*")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> memory.getByProject("")).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> memory.search("x", SearchFilter.project("a b"))).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> memory.prune(PruneRequest.skill(".."))).isInstanceOf(InvalidKeyException.class);
        assertThatThrownBy(() -> PluginMemory.builder(provider).addPrunePolicy(new ReviewHistoryPolicy(3)))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("Two prune policies for file type 'review_history'");
    }

    // ------------------------------------------------------------ validate

    @Test
    void validate_checks_the_create_examples_overview() {
        memory.create(overview, OVERVIEW);
        ValidationResult result = memory.validate(overview);
        assertThat(result.checks().completeness()).isFalse();
        assertThat(result.checks().missingTopics()).containsExactly("language", "architecture", "conventions", "testing");
        assertThat(result.checks().claims()).isEqualTo(1);
        assertThat(result.checks().vagueClaims()).isEqualTo(1);
        assertThat(result.checks().specificity()).isFalse();
        assertThat(result.checks().growthRate()).isEqualTo(QualityChecks.GrowthRate.UNKNOWN);
        assertThat(result.suggestions()).first().isEqualTo("Incomplete project overview: add language, architecture, conventions, testing.");
        assertThatThrownBy(() -> memory.validate(reviewHistory)).isInstanceOf(EntryNotFoundException.class);
    }

    @Test
    void specificity_uses_the_adapters_vague_and_specific_examples() {
        LayeredKey patterns = LayeredKey.skill("python-code-review", "my-api", "common_patterns");
        String specific = "- Custom JWT auth in `app/auth/middleware.py`, 15min expiry\n"
                + "- N+1 in `OrdersController.cs:GetHistory()`, loads reviews in loop\n"
                + "- Shared fixtures in `tests/conftest.py`: `sample_user`, `mock_db`\n";
        memory.create(patterns, specific + "- Uses custom auth\n");
        QualityChecks oneVague = memory.validate(patterns).checks();
        assertThat(oneVague.completeness()).as("not an overview").isTrue();
        assertThat(oneVague.vagueClaims()).isEqualTo(1);
        assertThat(oneVague.specificity()).as("25% vague").isTrue();

        memory.update(patterns, specific + "- Uses custom auth\n- Has N+1 queries\n- Tests use fixtures\n");
        ValidationResult halfVague = memory.validate(patterns);
        assertThat(halfVague.checks().vagueClaims()).isEqualTo(3);
        assertThat(halfVague.checks().specificity()).as("50% vague").isFalse();
        assertThat(halfVague.suggestions()).anyMatch(s -> s.startsWith("3 of 6 claims name no file path") && s.contains("\"- Uses custom auth\""));
    }

    @Test
    void growth_comes_from_the_version_history_or_is_unknown_without_one() {
        LayeredKey patterns = LayeredKey.skill("python-code-review", "my-api", "common_patterns");
        memory.create(patterns, "- a in `a.py`\n");
        memory.update(patterns, "- a in `a.py`\n- b in `b.py`\n");
        assertThat(memory.validate(patterns).checks().growthRate()).isEqualTo(QualityChecks.GrowthRate.HEALTHY);
        for (int i = 0; i < 5; i++) {
            memory.update(patterns, "- a in `a.py`\n- b in `b.py`\n");
        }
        ValidationResult stagnant = memory.validate(patterns);
        assertThat(stagnant.checks().growthRate()).isEqualTo(QualityChecks.GrowthRate.STAGNANT);
        assertThat(stagnant.suggestions()).contains("No growth in the last 5 writes: consolidate it or check it is still used.");

        PluginMemory noHistory = PluginMemory.builder(new WithoutTransactions(provider)).clock(clockOn(TODAY)).build();
        ValidationResult unknown = noHistory.validate(patterns);
        assertThat(unknown.checks().growthRate()).isEqualTo(QualityChecks.GrowthRate.UNKNOWN);
        assertThat(unknown.suggestions()).contains("Growth is unknown: this provider keeps no version history.");
    }

    // ------------------------------------------------------------ prune on demand

    @Test
    void prune_on_demand_keeps_ten_reviews_and_a_dry_run_writes_nothing() {
        on(LocalDate.of(2026, 1, 1)).create(reviewHistory, "# Review History\n\n" + reviews(1, 13));
        MemoryEntry before = provider.get(reviewHistory.key(), Scope.PROJECT).orElseThrow();

        PruneReport dry = memory.prune(PruneRequest.all().withDryRun(true));
        assertThat(dry.dryRun()).isTrue();
        assertThat(dry.actions(PruneAction.Kind.ARCHIVED)).hasSize(3);
        assertThat(provider.get(reviewHistory.key(), Scope.PROJECT)).contains(before);
        assertThat(provider.get(archive.key(), Scope.PROJECT)).isEmpty();

        PruneReport done = memory.prune(PruneRequest.all());
        assertThat(done.actions()).isEqualTo(dry.actions());
        assertThat(done.examined()).isEqualTo(1);
        assertThat(stored(reviewHistory)).isEqualTo(STAMP + "# Review History\n\n" + reviews(4, 13));
        assertThat(stored(archive)).isEqualTo(STAMP + reviews(1, 3));
        assertThat(memory.prune(PruneRequest.all()).actions()).as("pruning twice is pruning once").isEmpty();
    }

    @Test
    void prune_requests_cover_all_one_project_or_one_skill() {
        LayeredKey otherProject = LayeredKey.skill("python-code-review", "e-commerce", "review_history");
        LayeredKey otherSkill = LayeredKey.skill("dotnet-code-review", "my-api", "review_history");
        LayeredKey shared = LayeredKey.sharedProject("my-api", "review_history");
        LayeredKey agent = LayeredKey.agent("hephaestus", "review_history");
        for (LayeredKey key : List.of(reviewHistory, otherProject, otherSkill, shared, agent)) {
            memory.create(key, reviews(1, 11));
        }
        memory.create(LayeredKey.sharedProject("my-api", "project_overview"), "x\n".repeat(250));

        assertThat(keys(memory.prune(PruneRequest.skill("python-code-review", "my-api").withDryRun(true))))
                .containsExactly(reviewHistory.key());
        assertThat(keys(memory.prune(PruneRequest.skill("python-code-review").withDryRun(true))))
                .containsExactly(otherProject.key(), reviewHistory.key());
        PruneReport project = memory.prune(PruneRequest.project("my-api").withDryRun(true));
        assertThat(keys(project)).containsExactly(shared.key(), otherSkill.key(), reviewHistory.key());
        assertThat(project.warnings()).containsExactly("projects/my-api/project_overview: project_overview has 252 lines, "
                + "over the project_overview limit of 200: move detailed sections to separate files.");
        assertThat(keys(memory.prune(PruneRequest.all()))).containsExactly(agent.key(), shared.key(), otherSkill.key(),
                otherProject.key(), reviewHistory.key());
        assertThat(reviewNumbers(stored(agent.sibling("review_history_archive")))).containsExactly(1);
    }

    private static List<String> keys(PruneReport report) {
        return report.actions().stream().map(a -> a.key().key()).toList();
    }

    // ------------------------------------------------------------ concurrency

    @Test
    void concurrent_appends_in_one_jvm_lose_nothing_with_or_without_transactions() throws Exception {
        for (MemoryProvider target : List.of(provider, new WithoutTransactions(provider))) {
            PluginMemory shared = PluginMemory.builder(target).clock(clockOn(TODAY)).build();
            LayeredKey notes = LayeredKey.agent("agent-" + target.capabilities().size(), "notes");
            shared.create(notes, "");
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        shared.append(notes, "- note " + thread + "." + i + "\n");
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            pool.shutdown();
            List<String> lines = TimestampLine.body(stored(notes)).lines().toList();
            assertThat(lines).as(target.name()).hasSize(40).doesNotHaveDuplicates()
                    .allMatch(l -> l.matches("- note [0-3]\\.\\d"));
        }
    }
}
