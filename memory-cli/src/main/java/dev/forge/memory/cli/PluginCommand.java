package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.InvalidKeyException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.lifecycle.PluginMemory;
import dev.forge.memory.lifecycle.PruneAction;
import dev.forge.memory.lifecycle.TimestampLine;
import dev.forge.memory.lifecycle.WriteResult;
import dev.forge.memory.support.Layer;
import dev.forge.memory.support.LayeredKey;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code plugin create|update|append ID CONTENT}: the plugin memory adapter's write operations (seed 001), through
 * {@link PluginMemory}, so every document gets its {@code <!-- Last Updated: YYYY-MM-DD -->} first line.
 */
@Command(name = "plugin", mixinStandardHelpOptions = true,
        description = {"Write plugin memory documents as the plugin memory adapter does: the first line of the document "
                + "becomes '<!-- Last Updated: YYYY-MM-DD -->' (today, UTC), so staleness counts from this write. "
                + "'set' stores a value as given, without that line.",
            "ID is the layered key (skills/python-code-review/my-api/review_history) or the adapter's id, whose first "
                + "segment is the layer's name (skill-specific/python-code-review/my-api/review_history); layers: "
                + "projects (shared-project), skills (skill-specific), commands (command), agents (agent)."},
        subcommands = {PluginCommand.Create.class, PluginCommand.Update.class, PluginCommand.Append.class})
final class PluginCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** No operation: say which there are. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /**
     * The document {@code id} names: a layered key, or the adapter's id with the layer's name ({@code skill-specific})
     * as first segment.
     *
     * @throws InvalidKeyException saying which forms there are
     */
    static LayeredKey key(String id) {
        int slash = id.indexOf('/');
        if (slash > 0 && LayeredKey.parse(id).isEmpty()) {
            Layer layer;
            try {
                layer = Layer.of(id.substring(0, slash));
            } catch (InvalidKeyException unknownLayer) {
                return LayeredKey.of(id);
            }
            return LayeredKey.of(layer.directory() + id.substring(slash));
        }
        return LayeredKey.of(id);
    }

    /** What the three operations share: the document, its content, the scope, and how the result is printed. */
    abstract static class Write implements Callable<Integer> {

        /** One of {@link PluginMemory}'s write operations. */
        @FunctionalInterface
        interface Operation {
            WriteResult write(PluginMemory memory, LayeredKey key, String text);
        }

        private final Operation operation;
        private final String done;

        /** A write by {@code operation}, reported as {@code done} (past tense, e.g. {@code Created}). */
        Write(Operation operation, String done) {
            this.operation = operation;
            this.done = done;
        }

        @ParentCommand
        PluginCommand plugin;

        @Parameters(index = "0", paramLabel = "ID", description = "The document: a layered key or the adapter's id.")
        String id;

        @Parameters(index = "1", arity = "0..1", paramLabel = "CONTENT", description = "The content, or '-' to read stdin.")
        String content;

        @Option(names = "--value-file", paramLabel = "F", description = "Read the content from this UTF-8 file.")
        Path valueFile;

        @Option(names = "--scope", paramLabel = "S", defaultValue = "project",
                description = "The scope the documents are kept in (default: project).")
        Scope scope;

        @Override
        public Integer call() {
            LayeredKey key = key(id);
            ValueInput.checkGivenOnce(key.key(), content, valueFile);
            ForgeMemoryCommand cli = plugin.cli;
            WriteResult result;
            try (MemoryProvider memory = cli.open()) {
                String text = ValueInput.read(cli.stdin(), key.key(), content, valueFile, memory);
                result = operation.write(PluginMemory.builder(memory).scope(scope).build(), key, text);
            }
            String stamp = TimestampLine.parse(result.entry().value()).map(Object::toString).orElseThrow();
            if (cli.json) {
                ObjectNode out = Json.object();
                out.put("key", key.key()).put("scope", scope.id()).put("version", result.entry().version())
                        .put("last_updated", stamp).put("lines", result.lineCount());
                result.sizeWarning().ifPresent(w -> out.put("warning", w));
                ArrayNode actions = out.putArray("actions");
                for (PruneAction action : result.pruneActions()) {
                    actions.addObject().put("key", action.key().key())
                            .put("action", action.kind().name().toLowerCase(Locale.ROOT)).put("reason", action.reason());
                }
                cli.printJson(out);
                return ExitCodes.OK;
            }
            for (PruneAction action : result.pruneActions()) {
                cli.out().println(action.kind() + " " + ExitCodes.oneLine(action.key().key()) + ": "
                        + ExitCodes.oneLine(action.reason()));
            }
            result.sizeWarning().ifPresent(w -> cli.out().println("WARNING " + ExitCodes.oneLine(w)));
            cli.out().println(done + " " + key.key() + " (" + scope.id() + ", version " + result.entry().version() + ", "
                    + result.lineCount() + " lines), Last Updated " + stamp + ".");
            cli.out().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code plugin create}: a new document, stamped. */
    @Command(name = "create", mixinStandardHelpOptions = true,
            description = {"Create a document: CONTENT with '<!-- Last Updated: today -->' and a blank line in front "
                    + "(a timestamp line CONTENT starts with is replaced). Refused if the document exists (exit 4): use "
                    + "update or append."})
    static final class Create extends Write {
        Create() {
            super(PluginMemory::create, "Created");
        }
    }

    /** {@code plugin update}: replaces a document's content, stamped. */
    @Command(name = "update", mixinStandardHelpOptions = true,
            description = {"Replace a document's content; its first line becomes today's timestamp. Tags and metadata "
                    + "stay. Refused if the document does not exist (exit 1): create it first."})
    static final class Update extends Write {
        Update() {
            super(PluginMemory::update, "Updated");
        }
    }

    /** {@code plugin append}: adds to a document after its pruning rule ran, stamped. */
    @Command(name = "append", mixinStandardHelpOptions = true,
            description = {"Append CONTENT on a line of its own at the end of a document and set its timestamp to today. "
                    + "First the document's pruning rule runs, as 'prune' does (review_history: 10 newest reviews, older "
                    + "ones moved to review_history_archive); each action is printed. Refused if the document does not "
                    + "exist (exit 1): create it first."})
    static final class Append extends Write {
        Append() {
            super(PluginMemory::append, "Appended to");
        }
    }
}
