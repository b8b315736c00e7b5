package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code history KEY}: every version of a key, oldest first. */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = {"List every version of KEY, oldest first: vN, when it was written, and its first line; with --json, "
                + "{\"key\", \"scope\", \"versions\": [...]}, each version a whole entry.",
            "Exits 1 for an unknown key, 5 if the provider keeps no history."})
final class HistoryCommand implements Callable<Integer> {

    private static final int PREVIEW = 60;

    @ParentCommand
    ForgeMemoryCommand cli;

    @Mixin
    EntryArguments target;

    @Override
    public Integer call() {
        List<MemoryEntry> versions;
        try (MemoryProvider memory = cli.open()) {
            versions = memory.requireHistory().versions(target.key, target.scope);
        }
        if (versions.isEmpty()) {
            throw GetCommand.notFound(target.key, target.scope);
        }
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("key", target.key);
            document.put("scope", target.scope.id());
            ArrayNode array = document.putArray("versions");
            versions.forEach(v -> array.add(Json.entry(v)));
            cli.printJson(document);
        } else {
            for (MemoryEntry version : versions) {
                cli.out().println("v" + version.version() + " " + version.updatedAt() + " " + preview(version.value()));
            }
            cli.out().flush();
        }
        return ExitCodes.OK;
    }

    private static String preview(String value) {
        String firstLine = value.lines().findFirst().orElse("");
        if (firstLine.codePointCount(0, firstLine.length()) <= PREVIEW) {
            return firstLine;
        }
        return firstLine.substring(0, firstLine.offsetByCodePoints(0, PREVIEW - 3)) + "...";
    }
}
