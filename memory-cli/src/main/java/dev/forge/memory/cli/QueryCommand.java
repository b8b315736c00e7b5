package dev.forge.memory.cli;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code query PATTERN}: lists the entries whose keys match a pattern. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"List entries by key pattern, one line each: scope key (vN, updated ...); with --json, "
                + "{\"entries\": [...]}, each entry with every field.",
            "PATTERN: '*' every key, 'prefix:*', '*:suffix', '*mid*', an exact key, or 'tag:NAME'."})
final class QueryCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PATTERN", defaultValue = "*",
            description = "The key pattern (default: '*').")
    String pattern;

    @Option(names = "--scope", paramLabel = "S", description = "A scope to look in; repeatable (default: project).")
    List<Scope> scopes = new ArrayList<>();

    @Option(names = "--tag", paramLabel = "T", description = "A tag every entry must carry; repeatable.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--limit", paramLabel = "N", description = "At most N entries (default: all).")
    Integer limit;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip the first N entries.")
    int offset;

    @Option(names = "--order", paramLabel = "ORDER", defaultValue = "key", converter = OrderConverter.class,
            description = "key (default), key-desc, updated (oldest first) or updated-desc.")
    Query.Order order;

    @Override
    public Integer call() {
        Query query = Query.builder()
                .pattern(pattern)
                .scopes(scopes(scopes))
                .tags(tags)
                .order(order)
                .limit(limit == null ? Query.UNLIMITED : limit)
                .offset(offset)
                .build();
        List<MemoryEntry> entries;
        try (MemoryProvider memory = cli.open()) {
            entries = memory.query(query);
        }
        cli.printResults(entries, "entries", Json::entry, entry -> entry.scope().id() + " " + entry.key() + " (v"
                + entry.version() + ", updated " + entry.updatedAt() + ")",
                "No entries match '" + pattern + "' in " + names(query.scopes()) + ".");
        return ExitCodes.OK;
    }

    /** The scopes given, or PROJECT when none are. */
    static Set<Scope> scopes(List<Scope> given) {
        return given.isEmpty() ? EnumSet.of(Scope.PROJECT) : EnumSet.copyOf(given);
    }

    static String names(Set<Scope> scopes) {
        return String.join(", ", scopes.stream().sorted().map(Scope::id).toList());
    }

    /** {@code key}, {@code key-desc}, {@code updated}, {@code updated-desc}, ignoring case. */
    static final class OrderConverter implements CommandLine.ITypeConverter<Query.Order> {
        @Override
        public Query.Order convert(String text) {
            switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "key":
                    return Query.Order.KEY;
                case "key-desc":
                    return Query.Order.KEY_DESC;
                case "updated":
                    return Query.Order.UPDATED_ASC;
                case "updated-desc":
                    return Query.Order.UPDATED_DESC;
                default:
                    throw new CommandLine.TypeConversionException("Unknown order '" + text
                            + "': use key, key-desc, updated or updated-desc.");
            }
        }
    }
}
