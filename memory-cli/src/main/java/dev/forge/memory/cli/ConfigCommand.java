package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.config.ConfigSource;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code config}: which provider, settings and project this call would use, and where each came from. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Show the resolved configuration: provider, project, settings (secrets masked) and where each "
                + "came from, the session id, and the config files read. Opens nothing."})
final class ConfigCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Override
    public Integer call() {
        Memories.Builder memories = cli.memories();
        ResolvedConfig resolved = memories.resolve(memories.registry());
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("provider", resolved.provider());
            document.set("providerSource", source(resolved.providerSource()));
            document.put("project", resolved.projectId());
            document.set("projectSource", source(resolved.projectIdSource()));
            document.put("projectDirectory", resolved.projectDirectory().toString());
            document.set("config", Json.MAPPER.valueToTree(resolved.maskedConfig()));
            document.set("configSource", source(resolved.configSource()));
            document.put("session", cli.sessionId());
            document.put("sessionSource", cli.sessionSource());
            ArrayNode files = document.putArray("filesRead");
            resolved.filesRead().forEach(f -> files.add(f.toString()));
            cli.printJson(document);
        } else {
            cli.out().print(resolved.describe());
            cli.out().println("session:  " + cli.sessionId() + "    (from " + cli.sessionSource() + ")");
            cli.out().flush();
        }
        return ExitCodes.OK;
    }

    private static ObjectNode source(ConfigSource source) {
        ObjectNode node = Json.object();
        node.put("kind", source.kind().name());
        node.put("name", source.name());
        source.file().ifPresent(f -> node.put("file", f.toString()));
        return node;
    }
}
