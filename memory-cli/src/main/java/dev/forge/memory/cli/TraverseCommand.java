package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.Direction;
import dev.forge.memory.EntryRef;
import dev.forge.memory.GraphPath;
import dev.forge.memory.MemoryGraph;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Relation;
import dev.forge.memory.Scope;
import dev.forge.memory.Traversal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code traverse START [TYPE]...}: the entries reachable from one entry. */
@Command(name = "traverse", mixinStandardHelpOptions = true,
        description = {"Walk relations breadth-first from START and print one shortest path to each entry reached.",
            "Exits 1 if START does not exist, 5 if the provider has no graph."})
final class TraverseCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", paramLabel = "START")
    String start;

    @Parameters(index = "1..*", paramLabel = "TYPE", description = "Relation types to follow (default: every type).")
    List<String> types = new ArrayList<>();

    @Option(names = "--depth", paramLabel = "N", defaultValue = "2",
            description = "The longest path, 1 to " + Traversal.MAX_DEPTH + " (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--direction", paramLabel = "D", defaultValue = "outgoing",
            description = "outgoing (default), incoming or both.")
    Direction direction;

    @Option(names = "--scope", paramLabel = "S", defaultValue = "project", description = "START's scope (default: project).")
    Scope scope;

    @Override
    public Integer call() {
        Traversal traversal = new Traversal(new LinkedHashSet<>(types), direction, depth);
        EntryRef origin = EntryRef.of(start, scope);
        List<GraphPath> paths;
        try (MemoryProvider memory = cli.open()) {
            MemoryGraph graph = memory.requireGraph();
            if (memory.get(start, scope).isEmpty()) {
                throw GetCommand.notFound(start, scope);
            }
            paths = graph.traverse(origin, traversal);
        }
        if (cli.json) {
            ArrayNode array = Json.array();
            paths.forEach(p -> array.add(Json.path(p)));
            ObjectNode document = Json.object();
            document.set("start", Json.ref(origin));
            document.set("paths", array);
            cli.printJson(document);
        } else if (paths.isEmpty()) {
            cli.err().println("No entries are reachable from " + origin + ".");
            cli.err().flush();
        } else {
            for (GraphPath path : paths) {
                cli.out().println(describe(path));
            }
            cli.out().flush();
        }
        return ExitCodes.OK;
    }

    /** {@code project:a -[USES]-> project:b <-[CITES]- project:c}, each relation in its stored direction. */
    static String describe(GraphPath path) {
        StringBuilder line = new StringBuilder(path.start().toString());
        EntryRef at = path.start();
        for (Relation relation : path.relations()) {
            EntryRef next = relation.otherEnd(at);
            boolean forward = relation.from().equals(at);
            line.append(forward ? " -[" : " <-[").append(relation.type()).append(forward ? "]-> " : "]- ").append(next);
            at = next;
        }
        return line.toString();
    }

    static String describe(Relation relation) {
        return relation.from() + " -[" + relation.type() + "]-> " + relation.to();
    }
}
