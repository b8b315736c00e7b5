package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.lifecycle.PluginMemory;
import dev.forge.memory.lifecycle.Staleness;
import dev.forge.memory.lifecycle.StalenessEntry;
import dev.forge.memory.lifecycle.StalenessReport;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code staleness}: how long ago each memory was last updated, as fresh, aging or stale. */
@Command(name = "staleness", mixinStandardHelpOptions = true,
        description = {"List the memories by staleness, stale first, one line each: STALENESS DAYS DATE SCOPE KEY. "
                + "0-30 days since the last update is fresh, 31-90 aging, over 90 stale.",
            "A plugin memory document (a layered key such as skills/python-code-review/my-api/review_history) is dated "
                + "by its '<!-- Last Updated: YYYY-MM-DD -->' first line, and is stale without one; it also gets the "
                + "size warning of its kind (500 lines; project_overview 200; review_history 300). Every other memory "
                + "is dated by its last update.",
            "With --json, {\"today\", \"memories\": [{\"key\", \"scope\", \"staleness\", \"last_updated\", \"days\", "
                + "\"document\", \"lines\", \"warning\"}], \"counts\": {\"fresh\", \"aging\", \"stale\"}}."})
final class StalenessCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Option(names = "--scope", paramLabel = "S",
            description = "A scope to look in; repeatable (default: project and global).")
    List<Scope> scopes = new ArrayList<>();

    @Option(names = "--only", paramLabel = "STALENESS", description = "Only fresh, aging or stale memories.")
    String only;

    /** One memory's line of the report. */
    record Row(String key, Scope scope, Staleness staleness, Optional<LocalDate> lastUpdated, OptionalLong days,
               boolean document, OptionalLong lines, Optional<String> warning) {
    }

    @Override
    public Integer call() {
        Optional<Staleness> filter = Optional.ofNullable(only).map(StalenessCommand::staleness);
        Set<Scope> chosen = scopes.isEmpty() ? EnumSet.of(Scope.PROJECT, Scope.GLOBAL) : EnumSet.copyOf(scopes);
        // One instant for the whole report, so that documents and other memories are dated against the same day.
        java.time.Clock clock = java.time.Clock.fixed(java.time.Instant.now(), ZoneOffset.UTC);
        LocalDate today = LocalDate.now(clock);
        List<Row> rows = new ArrayList<>();
        try (MemoryProvider memory = cli.open()) {
            for (Scope scope : chosen) {
                rows.addAll(rows(memory, scope, clock, today));
            }
        }
        rows.removeIf(row -> filter.isPresent() && row.staleness() != filter.get());
        // Stale first, then the longest unchanged; undated documents (stale by rule) lead.
        rows.sort(Comparator.comparing((Row row) -> row.staleness().ordinal(), Comparator.reverseOrder())
                .thenComparing(row -> row.days().isPresent() ? -row.days().getAsLong() : Long.MIN_VALUE)
                .thenComparing(Row::key));
        Map<Staleness, Integer> counts = new EnumMap<>(Staleness.class);
        for (Staleness staleness : Staleness.values()) {
            counts.put(staleness, 0);
        }
        rows.forEach(row -> counts.merge(row.staleness(), 1, Integer::sum));
        if (cli.json) {
            ObjectNode out = Json.object();
            out.put("today", today.toString());
            ArrayNode array = out.putArray("memories");
            for (Row row : rows) {
                ObjectNode node = array.addObject();
                node.put("key", row.key()).put("scope", row.scope().id()).put("staleness", row.staleness().id());
                row.lastUpdated().ifPresentOrElse(d -> node.put("last_updated", d.toString()), () -> node.putNull("last_updated"));
                if (row.days().isPresent()) {
                    node.put("days", row.days().getAsLong());
                } else {
                    node.putNull("days");
                }
                node.put("document", row.document());
                if (row.lines().isPresent()) {
                    node.put("lines", row.lines().getAsLong());
                }
                row.warning().ifPresent(w -> node.put("warning", w));
            }
            ObjectNode countsNode = out.putObject("counts");
            counts.forEach((staleness, count) -> countsNode.put(staleness.id(), count));
            cli.printJson(out);
            return ExitCodes.OK;
        }
        if (rows.isEmpty()) {
            cli.err().println("No memories in " + QueryCommand.names(chosen) + (filter.isPresent() ? " are " + only : "") + ".");
            cli.err().flush();
            return ExitCodes.OK;
        }
        for (Row row : rows) {
            String days = row.days().isPresent() ? row.days().getAsLong() + " days" : "undated";
            String date = row.lastUpdated().map(LocalDate::toString).orElse("-");
            cli.out().println(String.format(Locale.ROOT, "%-5s %9s  %-10s  %-7s  %s%s", row.staleness().id(), days, date,
                    row.scope().id(), ExitCodes.oneLine(row.key()), row.warning().map(w -> "  (" + ExitCodes.oneLine(w) + ")").orElse("")));
        }
        cli.out().println(counts.get(Staleness.FRESH) + " fresh, " + counts.get(Staleness.AGING) + " aging, "
                + counts.get(Staleness.STALE) + " stale.");
        cli.out().flush();
        return ExitCodes.OK;
    }

    /** The rows of one scope: its plugin memory documents by their timestamp line, every other memory by its update. */
    private static List<Row> rows(MemoryProvider memory, Scope scope, java.time.Clock clock, LocalDate today) {
        List<Row> rows = new ArrayList<>();
        StalenessReport report = PluginMemory.builder(memory).scope(scope).clock(clock).build()
                .getStalenessReport();
        Set<String> documents = new java.util.HashSet<>();
        for (List<StalenessEntry> group : List.of(report.fresh(), report.aging(), report.stale())) {
            for (StalenessEntry entry : group) {
                documents.add(entry.key().key());
                rows.add(new Row(entry.key().key(), scope, entry.staleness(), entry.lastUpdated(), entry.daysSinceUpdate(),
                        true, OptionalLong.of(entry.lineCount()), entry.sizeWarning()));
            }
        }
        for (MemoryEntry entry : memory.query(Query.builder().scopes(EnumSet.of(scope)).build())) {
            if (documents.contains(entry.key()) || LayeredKey.parse(entry.key()).isPresent()) {
                continue;
            }
            LocalDate updated = LocalDate.ofInstant(entry.updatedAt(), ZoneOffset.UTC);
            rows.add(new Row(entry.key(), scope, Staleness.of(entry, today), Optional.of(updated),
                    OptionalLong.of(Staleness.daysSince(entry, today)), false, OptionalLong.empty(), Optional.empty()));
        }
        return rows;
    }

    private static Staleness staleness(String text) {
        for (Staleness staleness : Staleness.values()) {
            if (staleness.id().equalsIgnoreCase(text.trim())) {
                return staleness;
            }
        }
        throw new UsageException("Unknown staleness '" + text + "': use fresh, aging or stale.");
    }
}
