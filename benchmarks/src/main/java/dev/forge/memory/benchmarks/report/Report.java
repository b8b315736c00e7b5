package dev.forge.memory.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.benchmarks.Measure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Turns a run of {@code bin/bench} into {@code benchmarks/results/latest.json} and {@code docs/PERFORMANCE.md}.
 *
 * <p>Pairs each JMH result of {@code <Class>.<measure>_ours} with {@code <Class>.<measure>_baseline} of the same class
 * and the same parameters, and computes ratio = speed of ours / speed of the baseline: ours / baseline for throughput,
 * baseline / ours for time per operation. A pair in JMH's sample mode ({@code Mode.SampleTime}) is reported twice,
 * at its p50 and at its p99 ({@code <measure>.p50}, {@code <measure>.p99}), each with its own ratio. A pair with one
 * side missing, or with sides in different modes or units, is reported as an error, never dropped. Extras (measures
 * that are not timings) are merged as recorded.
 *
 * <p>With {@code --previous} (the {@code latest.json} of an earlier run; bin/bench passes it when a regex selects some
 * benchmarks only), the measures this run did not produce are carried over from it, marked {@code "earlier": true}
 * and listed apart in the markdown, so that a run of a few classes does not erase the others' numbers.
 *
 * <pre>
 * Report --jmh FILE [--extras FILE] [--notes FILE] [--previous FILE] [--command TEXT] [--load TEXT]
 *        --json OUT --markdown OUT [--quick]
 * </pre>
 *
 * <p>{@code --command} is the command line the markdown says wrote it (default {@code bin/bench}, with
 * {@code --quick}); {@code --load}, the machine's load average during the run, as the caller measured it.
 */
public final class Report {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String OURS = "_ours";
    private static final String BASELINE = "_baseline";
    /** The percentiles a sample-mode pair is reported at: JMH's key in {@code scorePercentiles} -> the name suffix. */
    private static final Map<String, String> PERCENTILES = Collections.unmodifiableMap(new LinkedHashMap<>(
            new TreeMap<>(Map.of("50.0", "p50", "99.0", "p99"))));

    private Report() {
    }

    /**
     * Writes the two files; exits 2 on bad arguments, 1 when the JMH file cannot be read or holds no result.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) throws IOException {
        Map<String, String> options = new HashMap<>();
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--quick")) {
                quick = true;
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                usage("unexpected argument '" + args[i] + "'");
            }
        }
        for (String required : List.of("jmh", "json", "markdown")) {
            if (!options.containsKey(required)) {
                usage("--" + required + " is missing");
            }
        }
        Path jmhFile = Path.of(options.get("jmh"));
        if (!Files.isRegularFile(jmhFile)) {
            System.err.println("report: no JMH result file " + jmhFile + "; did the benchmarks run?");
            System.exit(1);
        }
        JsonNode jmh = JSON.readTree(jmhFile.toFile());
        if (!jmh.isArray() || jmh.isEmpty()) {
            System.err.println("report: " + jmhFile + " holds no benchmark result; did the regex match any benchmark?");
            System.exit(1);
        }
        List<Result> results = new ArrayList<>(pair(jmh));
        Optional.ofNullable(options.get("extras")).map(Path::of).filter(Files::isRegularFile)
                .ifPresent(extras -> results.addAll(extras(readLines(extras))));
        List<Result> earlier = Optional.ofNullable(options.get("previous")).map(Path::of).filter(Files::isRegularFile)
                .map(previous -> carried(readTree(previous), results)).orElse(List.of());
        Properties notes = new Properties();
        Optional<Path> notesFile = Optional.ofNullable(options.get("notes")).map(Path::of).filter(Files::isRegularFile);
        if (notesFile.isPresent()) {
            try (var reader = Files.newBufferedReader(notesFile.get(), StandardCharsets.UTF_8)) {
                notes.load(reader);
            }
        }
        write(Path.of(options.get("json")), JSON.writeValueAsString(json(results, earlier)) + "\n");
        Run run = new Run(options.getOrDefault("command", "bin/bench" + (quick ? " --quick" : "")), quick,
                Optional.ofNullable(options.get("load")));
        write(Path.of(options.get("markdown")), markdown(results, earlier, Machine.describe(jmh), settings(jmh), run, notes));
        long missed = results.stream().filter(result -> result.met().equals(Optional.of(false))).count();
        long errors = results.stream().filter(result -> result.error().isPresent()).count();
        System.out.printf(Locale.ROOT, "report: %d measures (and %d from the previous run), %d missed targets, %d errors"
                + " -> %s, %s%n", results.size(), earlier.size(), missed, errors, options.get("json"),
                options.get("markdown"));
    }

    private static void usage(String problem) {
        System.err.println("report: " + problem + ".\nUsage: Report --jmh FILE [--extras FILE] [--notes FILE]"
                + " [--previous FILE] [--command TEXT] [--load TEXT] --json OUT --markdown OUT [--quick]");
        System.exit(2);
    }

    /**
     * Pairs the results of a JMH JSON result file ({@code -rf json}).
     *
     * @param jmh the file's root array
     * @return one result per measure and parameter set, sorted by label; incomplete pairs carry an error
     */
    public static List<Result> pair(JsonNode jmh) {
        Map<String, JsonNode[]> pairs = new TreeMap<>();
        for (JsonNode run : jmh) {
            String benchmark = run.path("benchmark").asText();
            int dot = benchmark.lastIndexOf('.');
            String className = benchmark.substring(0, Math.max(dot, 0));
            String method = benchmark.substring(dot + 1);
            int side;
            String measure;
            if (method.endsWith(OURS)) {
                side = 0;
                measure = method.substring(0, method.length() - OURS.length());
            } else if (method.endsWith(BASELINE)) {
                side = 1;
                measure = method.substring(0, method.length() - BASELINE.length());
            } else {
                continue; // not part of a pair: a helper benchmark, reported by JMH only
            }
            String id = className + '\u0000' + measure + '\u0000' + new TreeMap<>(params(run));
            pairs.computeIfAbsent(id, key -> new JsonNode[2])[side] = run;
        }
        List<Result> results = new ArrayList<>();
        for (JsonNode[] pair : pairs.values()) {
            JsonNode any = pair[0] != null ? pair[0] : pair[1];
            if ("sample".equals(any.path("mode").asText())) {
                PERCENTILES.forEach((percentile, suffix) -> results.add(result(pair[0], pair[1], percentile, suffix)));
            } else {
                results.add(result(pair[0], pair[1], null, null));
            }
        }
        results.sort(Comparator.comparing(Result::label));
        return List.copyOf(results);
    }

    /** One pair's result: at its score, or at {@code percentile} (named {@code suffix}) of a sample-mode pair. */
    private static Result result(JsonNode ours, JsonNode baseline, String percentile, String suffix) {
        JsonNode any = ours != null ? ours : baseline;
        String benchmark = any.path("benchmark").asText();
        int dot = benchmark.lastIndexOf('.');
        String className = benchmark.substring(0, dot);
        String method = benchmark.substring(dot + 1);
        String measure = method.substring(0, method.lastIndexOf('_'));
        String name = className.substring(className.lastIndexOf('.') + 1) + '.' + measure
                + (suffix == null ? "" : "." + suffix);
        Map<String, String> params = params(any);
        Optional<Measure> annotation = measureOf(className, measure + OURS);
        String description = annotation.map(Measure::value).orElse("") + (suffix == null ? "" : " (" + suffix + ")");
        double target = annotation.map(Measure::target).orElse(0.0);
        double oursScore = score(ours, percentile);
        double baselineScore = score(baseline, percentile);
        String unit = any.path("primaryMetric").path("scoreUnit").asText();
        String error = null;
        if (ours == null || baseline == null) {
            error = "no result for " + measure + (ours == null ? OURS : BASELINE) + " with these parameters: the pair"
                    + " is incomplete (a failed benchmark, or a regex that selected one side only)";
        } else if (!ours.path("mode").asText().equals(baseline.path("mode").asText())) {
            error = "ours runs in mode " + ours.path("mode").asText() + " and the baseline in "
                    + baseline.path("mode").asText() + "; both sides of a pair must use one mode";
        } else if (!unit.equals(baseline.path("primaryMetric").path("scoreUnit").asText())) {
            error = "ours is in " + unit + " and the baseline in " + baseline.path("primaryMetric").path("scoreUnit").asText()
                    + "; both sides of a pair must use one unit";
        } else if (annotation.isEmpty()) {
            error = "no @Measure on " + className + "." + measure + OURS;
        }
        double ratio = error == null ? ratio(ours.path("mode").asText(), oursScore, baselineScore) : Double.NaN;
        return new Result(name, description, oursScore, baselineScore, unit, ratio, target, params, Optional.ofNullable(error));
    }

    /**
     * Speed of ours / speed of the baseline for JMH mode {@code mode}: scores are speeds in throughput mode
     * ({@code thrpt}) and times in every other mode ({@code avgt}, {@code sample}, {@code ss}).
     */
    public static double ratio(String mode, double ours, double baseline) {
        if (!(ours > 0) || !(baseline > 0)) {
            return Double.NaN;
        }
        return "thrpt".equals(mode) ? ours / baseline : baseline / ours;
    }

    private static double score(JsonNode run, String percentile) {
        if (run == null) {
            return Double.NaN;
        }
        JsonNode metric = run.path("primaryMetric");
        return (percentile == null ? metric.path("score") : metric.path("scorePercentiles").path(percentile))
                .asDouble(Double.NaN);
    }

    private static Map<String, String> params(JsonNode run) {
        Map<String, String> params = new TreeMap<>();
        run.path("params").fields().forEachRemaining(field -> params.put(field.getKey(), field.getValue().asText()));
        return params;
    }

    private static Optional<Measure> measureOf(String className, String method) {
        try {
            Class<?> type = Class.forName(className, false, Report.class.getClassLoader());
            for (var candidate : type.getMethods()) {
                if (candidate.getName().equals(method)) {
                    return Optional.ofNullable(candidate.getAnnotation(Measure.class));
                }
            }
            return Optional.empty();
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** The measures recorded with {@code Extras.record}, one JSON object a line; a later line of one name and params wins. */
    public static List<Result> extras(List<String> lines) {
        Map<String, Result> byName = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode extra;
            try {
                extra = JSON.readTree(line);
            } catch (IOException e) {
                throw new UncheckedIOException("An extras line is not JSON: " + line, e);
            }
            Map<String, String> params = params(extra);
            String name = extra.path("name").asText();
            // A benchmark that could not run (no Node.js for the MCP server...) says so with unit "skipped": shown as
            // such, never as a ratio of 0.
            boolean skipped = "skipped".equals(extra.path("unit").asText());
            byName.put(name + '\u0000' + params, new Result(name, extra.path("description").asText(name),
                    skipped ? Double.NaN : extra.path("ours").asDouble(Double.NaN),
                    skipped ? Double.NaN : extra.path("baseline").asDouble(Double.NaN),
                    extra.path("unit").asText(), skipped ? Double.NaN : extra.path("ratio").asDouble(Double.NaN),
                    extra.path("target").asDouble(0), params,
                    skipped ? Optional.of("skipped: " + params.getOrDefault("reason", "no reason given")) : Optional.empty()));
        }
        return List.copyOf(byName.values());
    }

    /** The content of {@code latest.json}: one object per measure. */
    public static ArrayNode json(List<Result> results) {
        return json(results, List.of());
    }

    /** The content of {@code latest.json}: this run's measures, then those carried from an earlier run. */
    static ArrayNode json(List<Result> results, List<Result> earlier) {
        ArrayNode array = JSON.createArrayNode();
        for (Result result : concat(results, earlier)) {
            ObjectNode node = array.addObject();
            node.put("name", result.name());
            node.put("description", result.description());
            number(node, "ours", result.ours());
            number(node, "baseline", result.baseline());
            node.put("unit", result.unit());
            number(node, "ratio", result.ratio());
            number(node, "target", result.target() > 0 ? result.target() : Double.NaN);
            Optional<Boolean> met = result.met();
            if (met.isPresent()) {
                node.put("met", met.get());
            } else {
                node.putNull("met");
            }
            ObjectNode params = node.putObject("params");
            result.params().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(param -> params.put(param.getKey(), param.getValue()));
            result.error().ifPresent(error -> node.put("error", error));
            if (earlier.contains(result)) {
                node.put("earlier", true);
            }
        }
        return array;
    }

    /**
     * The measures of an earlier {@code latest.json} that {@code current} does not hold (same name and parameters),
     * in their order there.
     */
    static List<Result> carried(JsonNode previous, List<Result> current) {
        List<Result> carried = new ArrayList<>();
        for (JsonNode node : previous) {
            Map<String, String> params = params(node);
            String name = node.path("name").asText();
            if (current.stream().anyMatch(result -> result.name().equals(name) && result.params().equals(params))) {
                continue;
            }
            carried.add(new Result(name, node.path("description").asText(), node.path("ours").asDouble(Double.NaN),
                    node.path("baseline").asDouble(Double.NaN), node.path("unit").asText(),
                    node.path("ratio").asDouble(Double.NaN), node.path("target").asDouble(0), params,
                    Optional.ofNullable(node.path("error").textValue())));
        }
        return List.copyOf(carried);
    }

    private static List<Result> concat(List<Result> first, List<Result> second) {
        List<Result> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    /** The JMH settings of each benchmark, grouped: {@code "1 fork, warmup 3 x 5 s, ..." -> [SqliteBench.get_ours, ...]}. */
    static Map<String, List<String>> settings(JsonNode jmh) {
        Map<String, List<String>> groups = new TreeMap<>();
        for (JsonNode run : jmh) {
            String mode = run.path("mode").asText();
            boolean singleShot = "ss".equals(mode);
            String setting = String.format(Locale.ROOT, "mode %s, %d fork(s), %d thread(s), warmup %d x %s, measurement %d x %s",
                    mode, run.path("forks").asInt(), run.path("threads").asInt(), run.path("warmupIterations").asInt(),
                    singleShot ? "1 op" : run.path("warmupTime").asText(), run.path("measurementIterations").asInt(),
                    singleShot ? "1 op" : run.path("measurementTime").asText());
            String benchmark = run.path("benchmark").asText();
            String shortName = benchmark.substring(benchmark.lastIndexOf('.', benchmark.lastIndexOf('.') - 1) + 1);
            List<String> names = groups.computeIfAbsent(setting, key -> new ArrayList<>());
            if (!names.contains(shortName)) {
                names.add(shortName);
            }
        }
        return groups;
    }

    /** The content of {@code docs/PERFORMANCE.md}. */
    static String markdown(List<Result> results, Machine machine, Map<String, List<String>> settings, boolean quick,
            Properties notes) {
        return markdown(results, List.of(), machine, settings, new Run("bin/bench" + (quick ? " --quick" : ""), quick,
                Optional.empty()), notes);
    }

    /**
     * How a run was made: the command line, whether it was {@code --quick}, and the machine's load average during it.
     */
    record Run(String command, boolean quick, Optional<String> load) {
    }

    /** The content of {@code docs/PERFORMANCE.md}, with the measures carried from an earlier run listed apart. */
    static String markdown(List<Result> results, List<Result> earlier, Machine machine,
            Map<String, List<String>> settings, Run run, Properties notes) {
        boolean quick = run.quick();
        StringBuilder md = new StringBuilder();
        md.append("# Performance\n\n");
        md.append("Written by `").append(run.command()).append("` on ")
                .append(ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT)))
                .append(". Each measure runs ours and a raw baseline of the same backend in the same JMH run, on the same ")
                .append("data; **ratio = speed of ours / speed of the baseline** (1.0: as fast; higher is better). ")
                .append("Raw numbers: `benchmarks/results/latest.json`.\n\n");
        md.append("## Machine\n\n");
        md.append("- CPU: ").append(machine.cpu()).append(", ").append(machine.cores()).append(" cores\n");
        md.append("- Memory: ").append(machine.memory()).append('\n');
        md.append("- OS: ").append(machine.os()).append('\n');
        md.append("- JDK: ").append(machine.jdk()).append('\n');
        run.load().ifPresent(load -> md.append("- Load average (1, 5, 15 min): ").append(load).append('\n'));
        md.append("- Run: ").append(quick ? "quick (`--quick`: smaller sizes, short iterations; rough numbers)"
                : "full (the `@Param` sizes and each class's JMH settings)").append('\n');
        md.append("- JMH settings:\n");
        settings.forEach((setting, names) -> md.append("  - ").append(setting).append(": ")
                .append(String.join(", ", names)).append('\n'));
        md.append("\n## Results\n\n");
        table(md, results);
        if (!earlier.isEmpty()) {
            md.append("\n## Earlier results\n\n").append("Measures this run did not select (`bin/bench` with a regex), "
                    + "carried from the previous `benchmarks/results/latest.json`: their sizes are in their labels; "
                    + "their date, machine load and JMH settings are those of the run that measured them.\n\n");
            table(md, earlier);
        }
        List<Result> errors = results.stream().filter(result -> result.error().isPresent()).toList();
        if (!errors.isEmpty()) {
            md.append("\n## Errors\n\n");
            errors.forEach(result -> md.append("- **").append(result.label()).append("**: ")
                    .append(result.error().orElseThrow()).append('\n'));
        }
        md.append("\n## Method\n\n").append(METHOD);
        md.append("\n## Missed targets\n\n");
        List<Result> missed = concat(results, earlier).stream().filter(result -> result.met().equals(Optional.of(false)))
                .toList();
        if (missed.isEmpty()) {
            md.append("None.\n");
        }
        for (Result result : missed) {
            md.append("- **").append(result.label()).append("**").append(earlier.contains(result) ? " (earlier run)" : "")
                    .append(": ratio ").append(format(result.ratio()))
                    .append(", target ").append(format(result.target())).append(". ")
                    .append(note(notes, result.name())).append('\n');
        }
        return md.toString();
    }

    private static void table(StringBuilder md, List<Result> results) {
        md.append("| Measure | What | Ours | Baseline | Unit | Ratio | Target | Met |\n");
        md.append("|---|---|---:|---:|---|---:|---:|:---:|\n");
        for (Result result : results) {
            md.append("| ").append(cell(result.label())).append(" | ").append(cell(result.description())).append(" | ")
                    .append(format(result.ours())).append(" | ").append(format(result.baseline())).append(" | ")
                    .append(cell(result.unit())).append(" | ").append(result.error().isPresent() ? "**error**"
                            : result.baseline() == 0 && result.ratio() == 0 ? "n/a (no baseline)"
                            : format(result.ratio())).append(" | ")
                    .append(result.target() > 0 ? format(result.target()) : "").append(" | ")
                    .append(result.met().map(met -> met ? "yes" : "**no**").orElse("")).append(" |\n");
        }
    }

    /** The note of a measure; a percentile ({@code X.get.p99}) falls back to its measure's ({@code X.get}). */
    private static String note(Properties notes, String name) {
        String note = notes.getProperty(name);
        for (String suffix : PERCENTILES.values()) {
            if (note == null && name.endsWith("." + suffix)) {
                note = notes.getProperty(name.substring(0, name.length() - suffix.length() - 1));
            }
        }
        return note != null ? note : "(no note in benchmarks/notes.properties yet: say why the target is missed and "
                + "what would close it)";
    }

    private static final String METHOD = """
            - Every measure is a pair of JMH benchmarks in one class, `<measure>_ours` and `<measure>_baseline`, run in the
              same JVM fork one after the other on the same `@State` data (each side on its own copy of the store where it
              writes). The baseline is the honest raw use of the backend: the same statements, pragmas and options as ours,
              never tuned down.
            - Throughput measures compare operations per second (ratio = ours / baseline); time measures compare time per
              operation (ratio = baseline / ours). A target of 0.8 means "at least 80 % of the raw speed"; 0.33 means
              "at most three times the time".
            - Sizes are JMH parameters (`entries` already stored, `items` written, `corpus` embedded, `records` imported);
              `--quick` shrinks them (`benchmarks/quick.properties`) and shortens the iterations, so its numbers are rough.
            - Measures that are not timings (recall, memory) are recorded by the benchmark with `Extras` and listed as given.
            - Both sides share the machine with nothing else of the benchmark; on a busy machine ratios still compare
              like with like, but absolute numbers move.
            """;

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A score in three significant digits, or an empty cell for a missing one. */
    static String format(double value) {
        if (Double.isNaN(value)) {
            return "–";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 0.01) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static JsonNode readTree(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    /** The machine a run was on. */
    record Machine(String cpu, int cores, String memory, String os, String jdk) {

        /** This machine, with the JDK the forks reported in {@code jmh} (this JVM's when absent). */
        static Machine describe(JsonNode jmh) {
            String cpu = "unknown CPU";
            long memoryKb = 0;
            try {
                Path cpuinfo = Path.of("/proc/cpuinfo");
                if (Files.isReadable(cpuinfo)) {
                    for (String line : Files.readAllLines(cpuinfo)) {
                        if (line.startsWith("model name")) {
                            cpu = line.substring(line.indexOf(':') + 1).trim();
                            break;
                        }
                    }
                }
                Path meminfo = Path.of("/proc/meminfo");
                if (Files.isReadable(meminfo)) {
                    for (String line : Files.readAllLines(meminfo)) {
                        if (line.startsWith("MemTotal:")) {
                            memoryKb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                        }
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // The machine's description is best effort: the numbers stand without it.
            }
            String memory;
            if (memoryKb > 0) {
                memory = String.format(Locale.ROOT, "%.1f GiB", memoryKb / 1024.0 / 1024.0);
            } else if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
                memory = String.format(Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / 1024.0 / 1024.0 / 1024.0);
            } else {
                memory = "unknown";
            }
            Iterator<JsonNode> runs = jmh.elements();
            JsonNode first = runs.hasNext() ? runs.next() : JSON.createObjectNode();
            String jdk = System.getProperty("java.vendor") + " " + first.path("jdkVersion").asText(System.getProperty("java.version"))
                    + " (" + first.path("vmName").asText(System.getProperty("java.vm.name")) + " "
                    + first.path("vmVersion").asText(System.getProperty("java.vm.version")) + ")";
            return new Machine(cpu, Runtime.getRuntime().availableProcessors(), memory,
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " (" + System.getProperty("os.arch") + ")",
                    jdk);
        }
    }
}
