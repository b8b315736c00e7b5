package dev.forge.memory.lifecycle;

import dev.forge.memory.support.Layer;
import dev.forge.memory.support.LayeredKey;
import dev.forge.memory.ConflictException;
import dev.forge.memory.EntryNotFoundException;
import dev.forge.memory.InvalidRequestException;
import dev.forge.memory.KeyPattern;
import dev.forge.memory.Limits;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.MemoryTransaction;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.Transactions;
import dev.forge.memory.lifecycle.internal.KeyLocks;
import dev.forge.memory.lifecycle.internal.QualityRules;
import dev.forge.memory.lifecycle.internal.Sections;
import dev.forge.memory.EntryRules;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Forge plugin's layered markdown memory on top of any {@link MemoryProvider}, using only its public API: get,
 * set, query and delete, plus {@link MemoryProvider#transactions()} and {@link MemoryProvider#history()} where present.
 *
 * <p>Documents live under {@link LayeredKey}s in one scope ({@link Scope#PROJECT} by default). Their first line is
 * {@code <!-- Last Updated: YYYY-MM-DD -->}, part of the stored value: {@link #create} puts it in front,
 * {@link #update} and {@link #append} replace or add it, {@link #read} derives {@link Staleness} from it. "Today" is
 * the date of the configured {@link Clock}. Writes over a {@link SizeLimits size limit} succeed with a warning.
 * {@link #append} runs the file type's {@link PrunePolicy} on the document before adding the new content;
 * {@link #prune} runs the policies on demand. Keys of the provider that are not layered keys are ignored by every
 * listing.
 *
 * <p>Concurrency: one {@code PluginMemory} serialises read-modify-write cycles per directory (a document and its
 * archive) within the JVM. Across processes, when the provider has transactions every cycle is one transaction,
 * retried up to {@value #CONFLICT_ATTEMPTS} times on {@link ConflictException}, so concurrent appends do not lose
 * each other where the provider detects conflicts. Without transactions, two processes appending to one document at
 * the same time can lose one append (last write wins); pruning writes the archive before the main document, so a
 * crash in between leaves sections in both (duplicated, never lost).
 *
 * <p>Errors: a bad name is an {@link dev.forge.memory.InvalidKeyException}; a document that would exceed the
 * provider's {@link MemoryProvider#limits()} is the provider's {@link dev.forge.memory.ValueTooLargeException}, thrown
 * before anything is written.
 */
public final class PluginMemory {

    /** How often a cycle is tried when the provider's transaction reports a conflict. */
    public static final int CONFLICT_ATTEMPTS = 3;

    private static final Logger LOG = LoggerFactory.getLogger(PluginMemory.class);

    private final MemoryProvider provider;
    private final Scope scope;
    private final Clock clock;
    private final Map<String, PrunePolicy> policies;
    private final SizeLimits sizeLimits;
    private final boolean autoPrune;
    private final KeyLocks locks = new KeyLocks(64);

    private PluginMemory(Builder builder) {
        this.provider = builder.provider;
        this.scope = builder.scope;
        this.clock = builder.clock;
        this.policies = Map.copyOf(builder.policies);
        this.sizeLimits = builder.sizeLimits;
        this.autoPrune = builder.autoPrune;
    }

    /** A builder over {@code provider}; the defaults are listed on {@link Builder}. */
    public static Builder builder(MemoryProvider provider) {
        return new Builder(provider);
    }

    /** The three built-in policies: review history, known issues and test results history, with the adapter's numbers. */
    public static List<PrunePolicy> defaultPolicies() {
        return List.of(new ReviewHistoryPolicy(), new KnownIssuesPolicy(), new TestResultsHistoryPolicy());
    }

    /** The scope the documents live in. */
    public Scope scope() {
        return scope;
    }

    /** Today, by the configured clock. */
    public LocalDate today() {
        return LocalDate.now(clock);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Creates a document: {@code content} with today's timestamp line and a blank line in front (an existing
     * timestamp line in {@code content} is replaced instead).
     *
     * @throws ConflictException if the document exists; use {@link #update} or {@link #append}
     */
    public WriteResult create(LayeredKey key, String content) {
        Objects.requireNonNull(content, "content");
        LocalDate today = today();
        return change(key, store -> {
            if (store.get(key.key()).isPresent()) {
                throw new ConflictException("The memory document '" + key + "' already exists: use update or append to change it.");
            }
            MemoryEntry entry = writeAll(store, List.of(new Write(key.key(), TimestampLine.stamp(content, today), Optional.empty()))).get(0);
            return result(key, entry, List.of());
        });
    }

    /**
     * Replaces a document's content; the timestamp line becomes today's (replaced if {@code content} has one, else put
     * in front). Tags and metadata of the stored entry are kept.
     *
     * @throws EntryNotFoundException if the document does not exist; use {@link #create}
     */
    public WriteResult update(LayeredKey key, String content) {
        Objects.requireNonNull(content, "content");
        LocalDate today = today();
        return change(key, store -> {
            MemoryEntry current = store.get(key.key()).orElseThrow(() -> notFound(key, "update"));
            MemoryEntry entry = writeAll(store, List.of(new Write(key.key(), TimestampLine.stamp(content, today), Optional.of(current)))).get(0);
            return result(key, entry, List.of());
        });
    }

    /**
     * Appends {@code content} at the end of a document (on a line of its own) and sets its timestamp line to today.
     * With auto-pruning on and a policy for the file type, the policy first prunes the document as it was, then the
     * content is appended; text the policy moves goes to the sibling document first (created if missing).
     *
     * @throws EntryNotFoundException if the document does not exist; use {@link #create}
     */
    public WriteResult append(LayeredKey key, String content) {
        Objects.requireNonNull(content, "content");
        LocalDate today = today();
        PrunePolicy policy = autoPrune ? policies.get(key.fileType()) : null;
        return change(key, store -> {
            MemoryEntry current = store.get(key.key()).orElseThrow(() -> notFound(key, "append to"));
            String body = TimestampLine.body(current.value());
            List<Write> writes = new ArrayList<>();
            List<PruneAction> actions = List.of();
            if (policy != null) {
                PruneOutcome outcome = policy.prune(key, body, today);
                if (outcome.changed()) {
                    body = outcome.text();
                    actions = outcome.actions();
                    outcome.archive().ifPresent(archive -> writes.add(archiveWrite(store, key, archive, today)));
                }
            }
            writes.add(new Write(key.key(), TimestampLine.compose(today, Sections.joinLines(body, content)), Optional.of(current)));
            List<MemoryEntry> written = writeAll(store, writes);
            return result(key, written.get(written.size() - 1), actions);
        });
    }

    /**
     * Deletes a document; its directory's other documents (an archive, for instance) stay.
     *
     * @return whether it existed
     */
    public boolean delete(LayeredKey key) {
        return locks.withLocks(List.of(key.directory()), () -> provider.delete(key.key(), scope));
    }

    // ---------------------------------------------------------------- reads

    /** The document, with its staleness, line count and size warning; empty if it does not exist. */
    public Optional<MemoryDocument> read(LayeredKey key) {
        LocalDate today = today();
        return provider.get(key.key(), scope).map(entry -> document(key, entry, today));
    }

    /** The shared project profile, {@code projects/{project}/project_profile}. */
    public Optional<MemoryDocument> getProjectProfile(String project) {
        return read(LayeredKey.sharedProject(project, "project_profile"));
    }

    /** Every document of {@code projects/{project}/}, in key order; empty if there is none. */
    public List<MemoryDocument> getSharedProjectMemory(String project) {
        LayeredKey.checkSegment(project, "project name");
        return list(Layer.SHARED_PROJECT.directory() + "/" + project + "/", key -> true);
    }

    /** Every document of {@code skills/{skill}/{project}/}, in key order; empty if there is none. */
    public List<MemoryDocument> getSkillMemory(String skill, String project) {
        LayeredKey.checkSegment(skill, "skill name");
        LayeredKey.checkSegment(project, "project name");
        return list(Layer.SKILL.directory() + "/" + skill + "/" + project + "/", key -> true);
    }

    /** Every document of {@code commands/{project}/}, in key order; empty if there is none. */
    public List<MemoryDocument> getCommandMemory(String project) {
        LayeredKey.checkSegment(project, "project name");
        return list(Layer.COMMAND.directory() + "/" + project + "/", key -> true);
    }

    /** Every document of {@code agents/{agent}/}, in key order; empty if there is none. */
    public List<MemoryDocument> getAgentMemory(String agent) {
        LayeredKey.checkSegment(agent, "agent name");
        return list(Layer.AGENT.directory() + "/" + agent + "/", key -> true);
    }

    /** Every document of one project: shared, per skill, and command documents. */
    public ProjectMemory getByProject(String project) {
        LayeredKey.checkSegment(project, "project name");
        Map<String, List<MemoryDocument>> skills = new TreeMap<>();
        for (MemoryDocument document : list(Layer.SKILL.directory() + "/", key -> key.project().equals(Optional.of(project)))) {
            skills.computeIfAbsent(document.key().skill().orElseThrow(), s -> new ArrayList<>()).add(document);
        }
        return new ProjectMemory(project, getSharedProjectMemory(project), skills, getCommandMemory(project));
    }

    /**
     * Lines matching {@code pattern} in the documents {@code filter} accepts, by key then line, each with two lines of
     * context on either side. {@code pattern} is a Java regular expression, found anywhere in a line, ignoring case:
     * a plain word is a case-insensitive substring search; use {@link Pattern#quote} to search for text with
     * characters such as {@code (} or {@code *} literally. Every line counts, the timestamp line too (line 1).
     *
     * @throws InvalidRequestException if the pattern is empty or not a valid regular expression
     */
    public List<SearchMatch> search(String pattern, SearchFilter filter) {
        Objects.requireNonNull(pattern, "pattern");
        if (pattern.isEmpty()) {
            throw new InvalidRequestException("A memory search needs a pattern: a word or a regular expression.");
        }
        Pattern regex;
        try {
            regex = Pattern.compile(pattern, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        } catch (PatternSyntaxException e) {
            throw new InvalidRequestException("The search pattern '" + pattern + "' is not a valid regular expression ("
                    + e.getDescription() + " near index " + e.getIndex() + "); quote special characters with \\ .", e);
        }
        filter.project().ifPresent(p -> LayeredKey.checkSegment(p, "project name"));
        Set<Layer> layers = filter.layer().map(EnumSet::of).orElseGet(() -> EnumSet.allOf(Layer.class));
        List<SearchMatch> matches = new ArrayList<>();
        for (MemoryDocument document : documents(layers, filter.project(), Optional.empty())) {
            if (!filter.accepts(document.key())) {
                continue;
            }
            List<String> lines = Sections.lines(document.value()).stream().map(Sections::strip).toList();
            for (int i = 0; i < lines.size(); i++) {
                if (regex.matcher(lines.get(i)).find()) {
                    matches.add(new SearchMatch(document.key(), i + 1, lines.get(i),
                            lines.subList(Math.max(0, i - SearchMatch.CONTEXT_LINES), i),
                            lines.subList(i + 1, Math.min(lines.size(), i + 1 + SearchMatch.CONTEXT_LINES))));
                }
            }
        }
        return List.copyOf(matches);
    }

    /** {@link #search(String, SearchFilter)} over every layered document. */
    public List<SearchMatch> search(String pattern) {
        return search(pattern, SearchFilter.all());
    }

    /**
     * The adapter's quality checks of a document: completeness (for {@code project_overview}), specificity, growth
     * (from the provider's version history when it has one, else unknown), and suggestions. Writes nothing.
     *
     * @throws EntryNotFoundException if the document does not exist
     */
    public ValidationResult validate(LayeredKey key) {
        MemoryDocument document = read(key).orElseThrow(() -> notFound(key, "validate"));
        return QualityRules.validate(document, provider.history().map(h -> h.versions(key.key(), scope)));
    }

    /** Every layered document grouped by staleness, each group in key order. */
    public StalenessReport getStalenessReport() {
        LocalDate today = today();
        Map<Staleness, List<StalenessEntry>> groups = new LinkedHashMap<>();
        for (Staleness staleness : Staleness.values()) {
            groups.put(staleness, new ArrayList<>());
        }
        for (MemoryDocument document : documents(EnumSet.allOf(Layer.class), Optional.empty(), Optional.empty())) {
            groups.get(document.staleness()).add(StalenessEntry.of(document));
        }
        return new StalenessReport(today, groups.get(Staleness.FRESH), groups.get(Staleness.AGING), groups.get(Staleness.STALE));
    }

    // ---------------------------------------------------------------- pruning

    /**
     * Runs the prune policies over the documents of {@code request}: every layered document, one project's (shared,
     * skill and command layers), or one skill's. Each document is pruned in a cycle of its own (a transaction where
     * the provider has them); in a dry run nothing is written and the report says what would be done. Size limit
     * warnings of every document looked at (after pruning) come with the report.
     */
    public PruneReport prune(PruneRequest request) {
        request.project().ifPresent(p -> LayeredKey.checkSegment(p, "project name"));
        request.skill().ifPresent(s -> LayeredKey.checkSegment(s, "skill name"));
        Set<Layer> layers = request.skill().isPresent() ? EnumSet.of(Layer.SKILL)
                : request.project().isPresent() ? EnumSet.of(Layer.SHARED_PROJECT, Layer.SKILL, Layer.COMMAND)
                : EnumSet.allOf(Layer.class);
        LocalDate today = today();
        List<PruneAction> actions = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        List<MemoryDocument> documents = documents(layers, request.project(), request.skill()).stream()
                .filter(d -> request.covers(d.key())).toList();
        for (MemoryDocument document : documents) {
            LayeredKey key = document.key();
            PrunePolicy policy = policies.get(key.fileType());
            int lineCount = document.lineCount();
            if (policy != null) {
                Pruned pruned = request.dryRun() ? dryPrune(policy, document, today) : pruneOne(policy, key, today);
                actions.addAll(pruned.outcome().actions());
                lineCount = pruned.lineCount();
                if (pruned.outcome().changed()) {
                    LOG.debug("{} {} ({} actions)", request.dryRun() ? "Would prune" : "Pruned", key, pruned.outcome().actions().size());
                }
            }
            sizeLimits.check(key.fileType(), lineCount).ifPresent(w -> warnings.add(key + ": " + w));
        }
        return new PruneReport(actions, warnings, request.dryRun(), documents.size());
    }

    private record Pruned(PruneOutcome outcome, int lineCount) {
    }

    private Pruned dryPrune(PrunePolicy policy, MemoryDocument document, LocalDate today) {
        PruneOutcome outcome = policy.prune(document.key(), document.body(), today);
        int lines = outcome.changed() ? SizeLimits.lineCount(TimestampLine.compose(today, outcome.text())) : document.lineCount();
        return new Pruned(outcome, lines);
    }

    private Pruned pruneOne(PrunePolicy policy, LayeredKey key, LocalDate today) {
        return change(key, store -> {
            Optional<MemoryEntry> current = store.get(key.key());
            if (current.isEmpty()) {
                return new Pruned(PruneOutcome.unchanged(""), 0);
            }
            PruneOutcome outcome = policy.prune(key, TimestampLine.body(current.get().value()), today);
            if (!outcome.changed()) {
                return new Pruned(outcome, SizeLimits.lineCount(current.get().value()));
            }
            List<Write> writes = new ArrayList<>();
            outcome.archive().ifPresent(archive -> writes.add(archiveWrite(store, key, archive, today)));
            String value = TimestampLine.compose(today, outcome.text());
            writes.add(new Write(key.key(), value, current));
            writeAll(store, writes);
            return new Pruned(outcome, SizeLimits.lineCount(value));
        });
    }

    // ---------------------------------------------------------------- plumbing

    /** Reads and writes of one read-modify-write cycle: straight to the provider, or through a transaction. */
    private interface Store {
        Optional<MemoryEntry> get(String key);

        MemoryEntry set(String key, String value, List<String> tags, Map<String, Object> metadata);
    }

    /** One value to write; {@code previous} gives the tags and metadata to keep. */
    private record Write(String key, String value, Optional<MemoryEntry> previous) {
    }

    /**
     * Runs one cycle holding the lock of {@code key}'s directory (pruning writes to siblings), in a transaction when
     * the provider has them; a conflict at commit runs the whole cycle again, at most {@link #CONFLICT_ATTEMPTS} times.
     */
    private <T> T change(LayeredKey key, Function<Store, T> cycle) {
        return locks.withLocks(List.of(key.directory()), () -> {
            Optional<Transactions> transactions = provider.transactions();
            if (transactions.isEmpty()) {
                return cycle.apply(direct());
            }
            for (int attempt = 1; ; attempt++) {
                try (MemoryTransaction transaction = transactions.get().begin()) {
                    T result = cycle.apply(within(transaction));
                    try {
                        transaction.commit();
                        return result;
                    } catch (ConflictException conflict) {
                        if (attempt >= CONFLICT_ATTEMPTS) {
                            throw conflict;
                        }
                        LOG.debug("Conflict writing {} (attempt {} of {}), trying again", key, attempt, CONFLICT_ATTEMPTS);
                    }
                }
            }
        });
    }

    private Store direct() {
        return new Store() {
            @Override
            public Optional<MemoryEntry> get(String key) {
                return provider.get(key, scope);
            }

            @Override
            public MemoryEntry set(String key, String value, List<String> tags, Map<String, Object> metadata) {
                return provider.set(key, value, scope, tags, metadata);
            }
        };
    }

    private Store within(MemoryTransaction transaction) {
        return new Store() {
            @Override
            public Optional<MemoryEntry> get(String key) {
                return transaction.get(key, scope);
            }

            @Override
            public MemoryEntry set(String key, String value, List<String> tags, Map<String, Object> metadata) {
                return transaction.set(key, value, scope, tags, metadata);
            }
        };
    }

    /** Checks every value against the provider's limits, then writes them in order: nothing is written if one is too large. */
    private List<MemoryEntry> writeAll(Store store, List<Write> writes) {
        Limits limits = provider.limits();
        for (Write write : writes) {
            EntryRules.checkValue(write.value(), write.key(), limits);
        }
        List<MemoryEntry> written = new ArrayList<>();
        for (Write write : writes) {
            written.add(store.set(write.key(), write.value(), write.previous().map(MemoryEntry::tags).orElse(List.of()),
                    write.previous().map(MemoryEntry::metadata).orElse(Map.of())));
        }
        return written;
    }

    /** The archive document with {@code archive}'s text at its end, stamped today; created if missing. */
    private static Write archiveWrite(Store store, LayeredKey key, PruneOutcome.Archive archive, LocalDate today) {
        LayeredKey target = key.sibling(archive.fileType());
        Optional<MemoryEntry> existing = store.get(target.key());
        String body = existing.map(e -> TimestampLine.body(e.value())).orElse("");
        return new Write(target.key(), TimestampLine.compose(today, Sections.joinLines(body, archive.text())), existing);
    }

    private WriteResult result(LayeredKey key, MemoryEntry entry, List<PruneAction> actions) {
        int lines = SizeLimits.lineCount(entry.value());
        return new WriteResult(key, entry, lines, sizeLimits.check(key.fileType(), lines), actions);
    }

    private MemoryDocument document(LayeredKey key, MemoryEntry entry, LocalDate today) {
        String value = entry.value();
        Optional<LocalDate> lastUpdated = TimestampLine.parse(value);
        int lines = SizeLimits.lineCount(value);
        OptionalLong days = lastUpdated.map(d -> OptionalLong.of(Staleness.daysBetween(d, today))).orElse(OptionalLong.empty());
        return new MemoryDocument(key, value, TimestampLine.body(value), lastUpdated, Staleness.of(lastUpdated, today), days,
                lines, sizeLimits.check(key.fileType(), lines), entry);
    }

    /** The layered documents whose keys start with {@code prefix} and pass {@code accept}, in key order. */
    private List<MemoryDocument> list(String prefix, java.util.function.Predicate<LayeredKey> accept) {
        LocalDate today = today();
        Query query = Query.builder().pattern(KeyPattern.parse(prefix + "*")).scopes(scope).build();
        List<MemoryDocument> documents = new ArrayList<>();
        for (MemoryEntry entry : provider.query(query)) {
            LayeredKey.parse(entry.key()).filter(k -> k.key().startsWith(prefix)).filter(accept)
                    .ifPresent(k -> documents.add(document(k, entry, today)));
        }
        return documents;
    }

    /** The documents of {@code layers}, narrowed to one project and/or skill where given, by layer then key. */
    private List<MemoryDocument> documents(Set<Layer> layers, Optional<String> project, Optional<String> skill) {
        List<MemoryDocument> documents = new ArrayList<>();
        for (Layer layer : layers) {
            String prefix = layer.directory() + "/";
            if (layer == Layer.AGENT && project.isPresent()) {
                continue;
            }
            if (layer == Layer.SKILL && skill.isPresent()) {
                prefix += skill.get() + "/";
            } else if (layer != Layer.SKILL && layer != Layer.AGENT && project.isPresent()) {
                prefix += project.get() + "/";
            }
            documents.addAll(list(prefix, key -> project.isEmpty() || project.equals(key.project())));
        }
        documents.sort(java.util.Comparator.comparing(d -> d.key().key(), dev.forge.memory.Keys::compareKeys));
        return documents;
    }

    private static EntryNotFoundException notFound(LayeredKey key, String action) {
        return new EntryNotFoundException("Cannot " + action + " the memory document '" + key + "': it does not exist"
                + (action.equals("validate") ? "." : "; create it first."));
    }

    /**
     * Builds a {@link PluginMemory}. Defaults: scope {@link Scope#PROJECT}, the system UTC clock,
     * {@link PluginMemory#defaultPolicies()}, {@link SizeLimits#DEFAULT}, auto-pruning on append.
     */
    public static final class Builder {
        private final MemoryProvider provider;
        private Scope scope = Scope.PROJECT;
        private Clock clock = Clock.systemUTC();
        private final Map<String, PrunePolicy> policies = new LinkedHashMap<>();
        private SizeLimits sizeLimits = SizeLimits.DEFAULT;
        private boolean autoPrune = true;

        private Builder(MemoryProvider provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            prunePolicies(defaultPolicies());
        }

        /** The scope the documents live in. */
        public Builder scope(Scope scope) {
            this.scope = Objects.requireNonNull(scope, "scope");
            return this;
        }

        /** The clock "today" comes from (its zone decides the date). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The prune policies, replacing the current ones; an empty list turns pruning off.
         *
         * @throws InvalidRequestException if two policies are for the same file type
         */
        public Builder prunePolicies(List<? extends PrunePolicy> policies) {
            this.policies.clear();
            policies.forEach(this::addPrunePolicy);
            return this;
        }

        /**
         * Adds a policy.
         *
         * @throws InvalidRequestException if a policy for its file type is already there
         */
        public Builder addPrunePolicy(PrunePolicy policy) {
            PrunePolicy previous = policies.putIfAbsent(policy.fileType(), policy);
            if (previous != null) {
                throw new InvalidRequestException("Two prune policies for file type '" + policy.fileType() + "': "
                        + previous.getClass().getName() + " and " + policy.getClass().getName() + "; keep one.");
            }
            return this;
        }

        /** The size limits warnings come from. */
        public Builder sizeLimits(SizeLimits sizeLimits) {
            this.sizeLimits = Objects.requireNonNull(sizeLimits, "sizeLimits");
            return this;
        }

        /** Whether {@link PluginMemory#append} runs the file type's policy. */
        public Builder autoPrune(boolean autoPrune) {
            this.autoPrune = autoPrune;
            return this;
        }

        /** The helper. */
        public PluginMemory build() {
            return new PluginMemory(this);
        }
    }
}
