package dev.forge.memory.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.EntryRules;
import dev.forge.memory.support.files.LimitedText;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code set KEY [VALUE | --value-file F | -]}: stores a memory. */
@Command(name = "set", mixinStandardHelpOptions = true,
        description = {"Store a memory, replacing what the key held in that scope.",
            "The value is VALUE, the UTF-8 contents of --value-file F, or, for '-', stdin read as UTF-8 (kept verbatim, "
                    + "trailing newline included).",
            "A KEY or VALUE starting with '-' goes after '--': forge-memory set --tag t -- KEY -VALUE"})
final class SetCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Parameters(index = "0", paramLabel = "KEY", description = "The key: 1 to 512 characters, no control characters.")
    String key;

    @Parameters(index = "1", arity = "0..1", paramLabel = "VALUE", description = "The value, or '-' to read stdin.")
    String value;

    @Option(names = "--value-file", paramLabel = "F", description = "Read the value from this UTF-8 file.")
    Path valueFile;

    @Option(names = "--scope", paramLabel = "S", defaultValue = "project",
            description = "session, project (default) or global.")
    Scope scope;

    @Option(names = "--tag", paramLabel = "T", description = "A tag; repeat for several, in order.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--meta", paramLabel = "K=V", description = "A metadata field with a string value; repeatable.")
    List<String> meta = new ArrayList<>();

    @Option(names = "--meta-json", paramLabel = "K=JSON",
            description = "A metadata field with a JSON value (number, boolean, list, object...); repeatable.")
    List<String> metaJson = new ArrayList<>();

    @Override
    public Integer call() {
        ValueInput.checkGivenOnce(key, value, valueFile);
        Map<String, Object> metadata = metadata();
        try (MemoryProvider memory = cli.open()) {
            // Read after the provider is open: its value limit is where reading stops.
            String text = ValueInput.read(cli.stdin(), key, value, valueFile, memory);
            MemoryEntry stored = memory.set(key, text, scope, tags, metadata);
            if (cli.json) {
                cli.printJson(Json.entry(stored));
            } else {
                cli.println("Stored " + stored.ref() + " (version " + stored.version() + ").");
            }
        }
        return ExitCodes.OK;
    }

    /** Strict UTF-8: a value that is not valid text is refused rather than stored with replacement characters. */
    static String decode(byte[] bytes, String source) {
        try {
            return LimitedText.utf8(bytes);
        } catch (CharacterCodingException e) {
            throw ValueInput.notUtf8(source, e);
        }
    }

    private Map<String, Object> metadata() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String field : meta) {
            String[] parts = split(field, "--meta", "K=V");
            put(metadata, parts[0], parts[1]);
        }
        for (String field : metaJson) {
            String[] parts = split(field, "--meta-json", "K=JSON");
            Object parsed;
            try {
                parsed = Json.METADATA.readValue(parts[1]);
            } catch (JsonProcessingException e) {
                throw new UsageException("--meta-json " + parts[0] + ": '" + parts[1] + "' is not JSON ("
                        + e.getOriginalMessage() + "). Quote strings: " + parts[0] + "='\"text\"'.", e);
            }
            try {
                // Refused here as import refuses it, never rounded: 19.999999999999999999 is not 20.0.
                EntryRules.normalizeMetadata(java.util.Collections.singletonMap(parts[0], parsed), key);
            } catch (InvalidEntryException e) {
                throw new UsageException("--meta-json " + parts[0] + ": " + e.getMessage() + " To keep it as text, give it "
                        + "with --meta " + parts[0] + "=...", e);
            }
            put(metadata, parts[0], parsed);
        }
        return metadata;
    }

    private static String[] split(String field, String option, String form) {
        int equals = field.indexOf('=');
        if (equals <= 0) {
            throw new UsageException(option + " '" + field + "' is not " + form + ": write the field name, '=', then the value.");
        }
        return new String[] {field.substring(0, equals), field.substring(equals + 1)};
    }

    private static void put(Map<String, Object> metadata, String name, Object value) {
        if (metadata.containsKey(name)) {
            throw new UsageException("The metadata field '" + name + "' is given twice.");
        }
        metadata.put(name, value);
    }
}
