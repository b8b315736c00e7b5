package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.config.ConfigSource;
import dev.forge.memory.config.Memories;
import dev.forge.memory.config.ResolvedConfig;
import dev.forge.memory.spi.ProviderRegistry;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code config}: which provider, settings and project this call would use, and where each came from. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = {"Show the resolved configuration: provider, project, settings (secrets masked) and where each "
                + "came from, the session id, the config files read, and the providers found. Opens nothing.",
            "If the provider is not available (no provider of that name was found), the configuration is still printed, "
                    + "then the problem is reported on stderr and the exit code is 3."})
final class ConfigCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Override
    public Integer call() {
        Memories.Builder memories = cli.memories();
        ProviderRegistry registry = memories.registry();
        ResolvedConfig resolved = memories.resolve(registry);
        ConfigurationException unavailable = null;
        try {
            registry.factory(resolved.provider());
        } catch (ConfigurationException e) {
            unavailable = e;
        }
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
            document.put("providerAvailable", unavailable == null);
            ArrayNode found = document.putArray("providersFound");
            registry.names().forEach(found::add);
            cli.printJson(document);
        } else {
            cli.out().print(resolved.describe());
            cli.out().println("session:  " + cli.sessionId() + "    (from " + cli.sessionSource() + ")");
            cli.out().println("providers found: " + (registry.names().isEmpty() ? "none" : String.join(", ", registry.names())));
            cli.out().flush();
        }
        if (unavailable != null) {
            // Printed above, so the user sees where the name came from; still a configuration error for scripts.
            throw unavailable;
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
