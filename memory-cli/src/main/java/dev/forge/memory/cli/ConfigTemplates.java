package dev.forge.memory.cli;

import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The commented {@code .forge/config.yaml} that {@code init} writes, from the settings the provider's factory
 * describes ({@link MemoryProviderFactory#settings()}): optional keys commented out at their defaults, required ones
 * written with their example, a block's dotted keys folded into one flow map ({@code cache: { ttl: 1h, ... }}).
 */
final class ConfigTemplates {

    private ConfigTemplates() {
    }

    /** One line of the config block: the key, its value as YAML, whether it is written uncommented, its help. */
    private record Line(String key, String value, boolean required, String help) {
    }

    /** The file's text for the provider {@code factory} makes. */
    static String render(MemoryProviderFactory factory, String projectName) {
        String provider = factory.name();
        StringBuilder yaml = new StringBuilder();
        yaml.append("# forge-memory configuration of this project, written by 'forge-memory init'.\n")
                .append("#\n")
                .append("# The provider is chosen by, highest precedence first: --memory-provider NAME, a file given with\n")
                .append("# --memory-config FILE, $FORGE_MEMORY_PROVIDER, this file, $FORGE_HOME/config.yaml (default\n")
                .append("# ~/.forge/config.yaml), the built-in default. 'forge-memory config' shows what is in effect.\n")
                .append("# Strings may read the environment with ${VAR} or ${VAR:-default}; $$ is a literal $. Settings named\n")
                .append("# like password, secret, token or api_key are masked in 'forge-memory config'.\n")
                .append("memory:\n")
                .append("  # ").append(factory.description().replace("\n", " ")).append('\n')
                .append("  provider: ").append(provider).append('\n')
                .append("  # project: ").append(projectName)
                .append("    # the id PROJECT memories are kept under; default: the project directory's name\n");
        List<Line> lines = lines(factory.settings());
        if (lines.isEmpty()) {
            return yaml.append("  # config:                # the '").append(provider)
                    .append("' provider describes no settings: see its documentation\n").toString();
        }
        yaml.append(lines.stream().anyMatch(Line::required)
                ? "  config:                  # required settings hold an example; the others are shown at their default\n"
                : "  config:                  # every setting below is shown at its default; uncomment to change it\n");
        int width = lines.stream().mapToInt(l -> l.key().length() + l.value().length() + 2).max().orElse(0);
        for (Line line : lines) {
            String text = line.key() + ": " + line.value();
            yaml.append(line.required() ? "    " : "    # ").append(text)
                    .append(" ".repeat(width - text.length() + (line.required() ? 4 : 2)))
                    .append("# ").append(line.required() ? "required: " : "").append(line.help()).append('\n');
        }
        return yaml.toString();
    }

    /** The top-level keys in the order described, each block's dotted keys folded into its value. */
    private static List<Line> lines(List<Setting> settings) {
        List<Line> lines = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (Setting setting : settings) {
            String key = setting.name().contains(".") ? setting.name().substring(0, setting.name().indexOf('.')) : setting.name();
            if (seen.contains(key)) {
                continue;
            }
            seen.add(key);
            Setting own = settings.stream().filter(s -> s.name().equals(key)).findFirst().orElse(null);
            String help = own != null ? own.help() : settings.stream().filter(s -> s.name().startsWith(key + "."))
                    .map(Setting::help).collect(Collectors.joining("; "));
            lines.add(new Line(key, value(key, settings), own != null && own.required(), help));
        }
        return lines;
    }

    /** A key's value as YAML: its described default, or for a block the flow map of its described keys. */
    private static String value(String key, List<Setting> settings) {
        List<Setting> children = settings.stream().filter(s -> s.name().startsWith(key + ".")
                && s.name().indexOf('.', key.length() + 1) < 0).toList();
        if (children.isEmpty()) {
            return settings.stream().filter(s -> s.name().equals(key)).map(Setting::defaultValue).filter(v -> !v.isEmpty())
                    .findFirst().orElse("{ }");
        }
        return children.stream().map(c -> c.name().substring(key.length() + 1) + ": " + value(c.name(), settings))
                .collect(Collectors.joining(", ", "{ ", " }"));
    }
}
