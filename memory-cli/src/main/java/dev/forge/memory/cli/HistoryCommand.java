package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.Capability;
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
                + "{\"key\", \"scope\", \"deleted\", \"versions\": [...]}, each version a whole entry.",
            "Where the provider records deletions (capability tombstones), a deleted key keeps its history: a "
                    + "'(deleted)' line stands where each deletion was, the numbering skipping the deletion's version, "
                    + "and \"deleted\" is true while the key has no current entry. purge erases such a history.",
            "Exits 1 for an unknown (or purged) key, 5 if the provider keeps no history."})
final class HistoryCommand implements Callable<Integer> {

    private static final int PREVIEW = 60;

    /** Stands where a deletion was: it has a version number but no value, and is not listed by the API. */
    static final String DELETED = "(deleted)";

    @ParentCommand
    ForgeMemoryCommand cli;

    @Mixin
    EntryArguments target;

    @Override
    public Integer call() {
        List<MemoryEntry> versions;
        boolean tombstones;
        boolean deleted;
        try (MemoryProvider memory = cli.open()) {
            versions = memory.requireHistory().versions(target.key, target.scope);
            tombstones = memory.capabilities().contains(Capability.TOMBSTONES);
            // A history without a current entry: the key was deleted and its versions kept (tombstones).
            deleted = !versions.isEmpty() && memory.get(target.key, target.scope).isEmpty();
        }
        if (versions.isEmpty()) {
            throw GetCommand.notFound(target.key, target.scope);
        }
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("key", target.key);
            document.put("scope", target.scope.id());
            document.put("deleted", deleted);
            ArrayNode array = document.putArray("versions");
            versions.forEach(v -> array.add(Json.entry(v)));
            cli.printJson(document);
        } else {
            MemoryEntry previous = null;
            for (MemoryEntry version : versions) {
                // With tombstones each deletion takes a version number of its own, never listed: a gap is a deletion.
                if (tombstones && previous != null && version.version() > previous.version() + 1) {
                    cli.out().println(DELETED);
                }
                cli.out().println("v" + version.version() + " " + version.updatedAt() + " " + preview(version.value()));
                previous = version;
            }
            if (deleted) {
                cli.out().println(DELETED);
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
