package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.Capability;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.EntryRules;
import dev.forge.memory.Hit;
import dev.forge.memory.IndexModelMismatchException;
import dev.forge.memory.Keys;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Reindexing;
import dev.forge.memory.Restoring;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.embedding.EmbeddingModel;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import dev.forge.memory.support.EntryWrite;
import dev.forge.memory.support.Facets;
import dev.forge.memory.support.QueryEmbedding;
import dev.forge.memory.support.SearchText;
import dev.forge.memory.support.SemanticScorer;
import dev.forge.memory.vector.internal.Documents;
import dev.forge.memory.vector.internal.IndexState;
import dev.forge.memory.vector.internal.ScopedIndexes;
import dev.forge.memory.vector.internal.VectorIndex;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code vector} provider: PROJECT and SESSION memories of every project and session using one directory
 * ({@code path}) in one Lucene index, GLOBAL memories in a second index every project of the user shares
 * ({@code global_path}, by default {@code $FORGE_HOME/vectors}), with BM25 keyword search, semantic search by the
 * configured {@link EmbeddingModel}, and their fusion ({@link SemanticScorer#fuse(SearchRequest, List, List, int, double)}).
 * A read over scopes of both indexes searches them as one. Every score is in (0, 1], and {@code threshold} applies to
 * it; a search's scopes and filter select candidates before the top hits are chosen.
 *
 * <p>Every {@code set}, {@code delete} and {@code clear} is committed (files synced) before it returns, and the next
 * read sees it. {@link Restoring#restore} keeps only the last version it is given (there is no history), in one
 * Lucene update: a failed or interrupted restore leaves the key as it was. {@link Restoring#restoreAll} (an import's
 * batch) embeds the batch's texts in one call of the model and commits each index it writes once; a refused chain or
 * a failing model leaves nothing of the batch.
 *
 * <p>Safe for many threads; providers opened on one directory in one JVM share one index writer. Another process
 * opening the same project directory fails with {@link BackendUnavailableException} while this one has it open; the
 * shared GLOBAL index (and one index for all scopes, when {@code path} and {@code global_path} name one directory) is
 * opened by many processes at once, each write taking Lucene's lock for its own duration.
 *
 * <p>Each index records the fingerprint of the model that made its vectors; opening it with a model that does not
 * {@linkplain EmbeddingModel#recognises recognise} it fails with {@link IndexModelMismatchException} unless the context
 * is {@linkplain ProviderContext#openForReindex() opened for reindex}, after which {@link Reindexing#reindex} rebuilds
 * every vector of both. A config that names no model gets the model the indexes record (the project's, else the
 * GLOBAL one's), else {@value VectorConfig#DEFAULT_MODEL} for new ones. No read, keyword search or delete embeds, so
 * a local model, which loads its weights on its first text, is never loaded by them. Graph, transactions and history
 * are not offered.
 *
 * <p>Search modes and scores, index layout, reindex and settings: docs/providers/vector.md.
 */
public final class VectorMemoryProvider implements MemoryProvider {

    /** The name this provider is selected by. */
    public static final String NAME = "vector";

    static final Set<Capability> CAPABILITIES =
            Set.copyOf(EnumSet.of(Capability.KEYWORD_SEARCH, Capability.SEMANTIC_SEARCH, Capability.REINDEX,
                    Capability.RESTORE));

    private final ProviderContext context;
    private final EmbeddingModel model;
    private final ScopedIndexes indexes;
    private final VectorSearch search;
    private final VectorMaintenance maintenance;
    private final String modelSource;
    private final String modelField;
    /** Whether the config names the model, rather than the index (or the default for a new one). */
    private final boolean modelNamed;
    private final SearchText text;
    private final String fieldsField;
    private final Reindexing reindexing = this::reindex;
    private final Restoring restoring = Facets.restoring(this::restoreAll);
    private final Object closeLock = new Object();
    private volatile boolean closed;

    private VectorMemoryProvider(ProviderContext context, VectorConfig config, EmbeddingModel model, ScopedIndexes indexes,
            String modelSource, String modelField) {
        this.context = context;
        this.model = model;
        this.indexes = indexes;
        this.modelSource = modelSource;
        this.modelField = modelField;
        this.modelNamed = config.namesModel();
        this.text = config.searchFields();
        this.fieldsField = context.config().path() + "." + SearchText.SETTING;
        this.search = new VectorSearch(indexes, config, model.dimension(), this::embedQuery, this::namespaces);
        this.maintenance = new VectorMaintenance(indexes, model, config.searchFields(), this::embed);
    }

    /**
     * Opens the indexes {@code config} names (creating them when missing) with its embedding model, and moves the
     * GLOBAL entries the project's index holds from before GLOBAL was shared into the shared index.
     *
     * @throws ConfigurationException       for an unknown model or bad model settings
     * @throws IndexModelMismatchException  if an index was built by a model of another fingerprint and the context is
     *                                      not opened for reindex
     * @throws BackendUnavailableException  if another process has the project's index open, or an index cannot be
     *                                      opened or created (the forge home is not writable, {@code global_path} is
     *                                      a file)
     * @throws CorruptEntryException        if the index files are damaged
     */
    public static VectorMemoryProvider open(ProviderContext context, VectorConfig config) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(config, "config");
        ProviderConfig raw = context.config();
        String field = raw.path() + ".embedding";
        Path project = context.resolve(config.path());
        Path global = config.globalPath() == null ? context.forgeHome().resolve(VectorConfig.DEFAULT_GLOBAL_DIRECTORY)
                : context.resolve(config.globalPath());
        EmbeddingModel model = config.openModel(raw, config.namesModel() ? Optional.empty()
                : ScopedIndexes.recordedModel(project, global));
        try {
            if (model.dimension() > Documents.MAX_DIMENSION) {
                throw new ConfigurationException(raw.source() + ": the embedding model '" + model.name() + "' makes vectors of "
                        + model.dimension() + " dimensions; the vector provider indexes at most " + Documents.MAX_DIMENSION
                        + ". Choose a smaller model or dimension.", raw.source(), field, null);
            }
            ScopedIndexes indexes = ScopedIndexes.open(project, global, () -> IndexState.of(model, config.searchFields()));
            try {
                VectorMemoryProvider provider = new VectorMemoryProvider(context, config, model, indexes, raw.source(), field);
                for (VectorIndex index : indexes.all()) {
                    IndexState state = index.adoptRecognised(model);
                    if (!state.serves(model, config.searchFields()) && index != indexes.project()) {
                        state = provider.adoptIfEmpty(index);
                    }
                    if (!state.serves(model, config.searchFields()) && !context.openForReindex()) {
                        throw provider.mismatch(index);
                    }
                }
                LegacyGlobal.move(indexes, config.searchFields(), provider::embed, provider::checkWritable);
                return provider;
            } catch (RuntimeException e) {
                indexes.release();
                throw e;
            }
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
    }

    /**
     * The state of the shared GLOBAL index, recording this provider's model instead of another if the index holds no
     * entry (no vector to compare): the first project to write GLOBAL sets the shared index's model, not the first to
     * open it. Checked and recorded in one rebuild, which no other process's write can interleave.
     */
    private IndexState adoptIfEmpty(VectorIndex index) {
        try {
            index.rebuild(IndexState.of(model, text), (writer, searcher) -> {
                if (searcher.getIndexReader().numDocs() > 0) {
                    throw mismatch(index);
                }
                return null;
            });
        } catch (ConfigurationException e) {
            // not empty: the recorded model and fields stay, and the caller decides
        }
        return index.state();
    }

    /** What to do about an index whose documents were indexed with other {@code search_fields} than {@code configured}. */
    static String fieldsChanged(IndexState state, SearchText configured) {
        return "its documents were indexed with search_fields " + state.searchFields().fields() + ", the config says "
                + configured.fields() + "; set search_fields back, or rebuild the index with the new fields: "
                + "forge-memory reindex";
    }

    /**
     * The refusal of {@code index}, whose vectors another model made, or (a {@link ConfigurationException} naming
     * {@code search_fields}) whose documents were indexed with other {@code search_fields}.
     */
    private ConfigurationException mismatch(VectorIndex index) {
        String location = index == indexes.project() ? index.directory().toString() : index.directory()
                + " (the GLOBAL index every project shares: use the model it was built with, reindex it for all of them, "
                + "or give this project a 'global_path' of its own)";
        IndexState state = index.state();
        if (state.serves(model) && !state.searchFields().equals(text)) {
            return new ConfigurationException("The vector index at " + location + ": " + fieldsChanged(state, text),
                    modelSource, fieldsField, null);
        }
        if (!modelNamed) {
            location += " (the config names no model, so '" + model.name() + "', the model an index records (for new "
                    + "indexes " + VectorConfig.DEFAULT_MODEL + "), was opened with its default settings; name the model "
                    + "and the settings the index was built with: embedding: {model: " + model.name() + ", ...})";
        }
        return new IndexModelMismatchException(NAME, location, index.state().describedFingerprint(model),
                model.fingerprint(), modelSource, modelField);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The project's index directory (its real path). */
    public Path directory() {
        return indexes.project().directory();
    }

    /** The directory of the GLOBAL index (its real path): the project's own when both settings name one directory. */
    public Path globalDirectory() {
        return indexes.global().directory();
    }

    /** The embedding model this provider embeds with. */
    public EmbeddingModel embeddingModel() {
        return model;
    }

    private void checkOpen() {
        if (closed) {
            throw new BackendUnavailableException("This vector provider (" + directory() + ") is closed; open a new one.");
        }
    }

    private String namespace(Scope scope) {
        return Documents.namespace(Objects.requireNonNull(scope, "scope"), context.projectId(), context.sessionId());
    }

    private Set<String> namespaces(Set<Scope> scopes) {
        Set<String> namespaces = new LinkedHashSet<>();
        scopes.forEach(scope -> namespaces.add(namespace(scope)));
        return namespaces;
    }

    private String where(String key, Scope scope) {
        return indexes.of(scope).directory() + " (" + scope.id() + ":" + Keys.abbreviate(key) + ")";
    }

    // ------------------------------------------------------------------ core

    @Override
    public Optional<MemoryEntry> get(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        checkOpen();
        String id = Documents.id(namespace(scope), key);
        return indexes.of(scope).read(searcher -> Documents.find(searcher, id, where(key, scope)));
    }

    @Override
    public MemoryEntry set(String key, String value, Scope scope, List<String> tags, Map<String, ?> metadata) {
        checkOpen();
        EntryWrite write = EntryWrite.validate(key, value, scope, tags, metadata, limits());
        String ns = namespace(scope);
        String id = Documents.id(ns, key);
        // The embedded text holds no version or time, so the (slow) model runs before the write lock is taken.
        MemoryEntry draft = write.toEntry(Optional.empty(), context.clock().instant());
        float[] vector = embed(List.of(text.text(draft))).get(0);
        VectorIndex index = indexes.of(scope);
        return index.write(changes -> {
            checkWritable(index);
            Optional<MemoryEntry> previous = changes.current(id, where(key, scope));
            MemoryEntry entry = write.toEntry(previous, context.clock().instant());
            put(changes, ns, entry, vector);
            return entry;
        });
    }

    /** Under the write lock: replaces the key's document (if any) by that of {@code entry}, in one Lucene update. */
    private void put(VectorIndex.Changes changes, String ns, MemoryEntry entry, float[] vector) throws IOException {
        changes.put(Documents.id(ns, entry.key()), Documents.document(entry, ns, context.projectId(), context.sessionId(), text,
                vector), entry);
    }

    @Override
    public Optional<Restoring> restoring() {
        return Optional.of(restoring);
    }

    /**
     * Restores the chains of one batch (what an import restores at a time) as {@code restore} would one by one, each
     * key's last version its only document, exactly as given. Every chain is checked and every text embedded, with one
     * call of the model, before anything is written; then each run of consecutive chains of one index (the project's,
     * the GLOBAL one) is one Lucene update per key and one commit. A refused chain or a failing model leaves nothing of
     * the batch; a failed commit leaves nothing of its run (the runs before it stay, each whole).
     */
    private List<MemoryEntry> restoreAll(List<List<MemoryEntry>> chains) {
        Objects.requireNonNull(chains, "chains");
        checkOpen();
        List<MemoryEntry> current = new ArrayList<>(chains.size());
        for (List<MemoryEntry> versions : chains) {
            List<MemoryEntry> chain = EntryRules.checkChain(versions, limits());
            current.add(chain.get(chain.size() - 1));
        }
        if (current.isEmpty()) {
            return List.of();
        }
        // The documents are made before the write lock is taken: nothing can fail between two updates of a run.
        List<float[]> vectors = embed(current.stream().map(text::text).toList());
        List<org.apache.lucene.document.Document> documents = new ArrayList<>(current.size());
        for (int i = 0; i < current.size(); i++) {
            MemoryEntry entry = current.get(i);
            documents.add(Documents.document(entry, namespace(entry.scope()), context.projectId(), context.sessionId(),
                    text, vectors.get(i)));
        }
        for (int from = 0, to; from < current.size(); from = to) {
            VectorIndex index = indexes.of(current.get(from).scope());
            to = from + 1;
            while (to < current.size() && indexes.of(current.get(to).scope()) == index) {
                to++;
            }
            int start = from;
            int end = to;
            index.write(changes -> {
                // the same guard as set: a vector of this model must not enter an index of another model's vectors
                checkWritable(index);
                for (int i = start; i < end; i++) {
                    MemoryEntry entry = current.get(i);
                    changes.put(Documents.id(namespace(entry.scope()), entry.key()), documents.get(i), entry);
                }
                return null;
            });
        }
        return List.copyOf(current);
    }

    /** The unit vector of the search text {@code query} ({@code null} without words), embedded as a query. */
    private float[] embedQuery(String query) {
        return checked(List.of(query), List.of(QueryEmbedding.vectorOfQuery(model, query))).get(0);
    }

    /** The unit vectors of {@code texts} ({@code null} for a text without words), checked against the model's dimension. */
    private List<float[]> embed(List<String> texts) {
        return checked(texts, model.embed(texts));
    }

    private List<float[]> checked(List<String> texts, List<float[]> vectors) {
        if (vectors.size() != texts.size()) {
            throw new BackendUnavailableException("The embedding model '" + model.name() + "' returned " + vectors.size()
                    + " vectors for " + texts.size() + " texts.");
        }
        List<float[]> units = new ArrayList<>(vectors.size());
        for (float[] vector : vectors) {
            if (vector.length != model.dimension()) {
                throw new BackendUnavailableException("The embedding model '" + model.name() + "' returned a vector of "
                        + vector.length + " components; it declares " + model.dimension() + ".");
            }
            units.add(Documents.unitOrNull(vector));
        }
        return units;
    }

    /**
     * Called under the write lock: a write embeds with this provider's model, so the index must record that model.
     * A provider opened for reindex marks the index incomplete with its model at its first write; any other
     * provider refuses to mix models.
     */
    private void checkWritable(VectorIndex index) {
        IndexState state = index.state();
        if (state.fingerprint().equals(model.fingerprint()) && state.searchFields().equals(text)) {
            return;
        }
        if (context.openForReindex()) {
            index.recordState(IndexState.of(model, text).withComplete(false));
            return;
        }
        throw mismatch(index);
    }

    @Override
    public boolean delete(String key, Scope scope) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Keys.validate(key);
        checkOpen();
        String id = Documents.id(namespace(scope), key);
        return indexes.of(scope).write(changes -> {
            if (changes.current(id, where(key, scope)).isEmpty()) {
                return false;
            }
            changes.delete(id);
            return true;
        });
    }

    @Override
    public int clear(Scope scope) {
        Objects.requireNonNull(scope, "scope");
        checkOpen();
        String ns = namespace(scope);
        return indexes.of(scope).write(changes -> changes.deleteNamespace(ns));
    }

    @Override
    public List<MemoryEntry> query(Query query) {
        Objects.requireNonNull(query, "query");
        checkOpen();
        return query.apply(search.candidates(query));
    }

    @Override
    public List<Hit> search(SearchRequest request) {
        Objects.requireNonNull(request, "request");
        checkOpen();
        if (request.mode() != SearchMode.KEYWORD) {
            for (VectorIndex index : indexes.of(request.scopes())) {
                if (!index.state().serves(model)) {
                    throw mismatch(index);
                }
            }
        }
        for (VectorIndex index : indexes.of(request.scopes())) {
            if (!index.state().searchFields().equals(text)) {
                throw mismatch(index);
            }
        }
        return search.search(request);
    }

    // ------------------------------------------------------------------ capabilities, reindex, doctor

    @Override
    public Set<Capability> capabilities() {
        return CAPABILITIES;
    }

    /** Always present: rebuilds every vector (and the keyword index) of both indexes with the configured model. */
    @Override
    public Optional<Reindexing> reindexing() {
        return Optional.of(reindexing);
    }

    private Reindexing.ReindexResult reindex(Reindexing.Progress progress) {
        Objects.requireNonNull(progress, "progress");
        checkOpen();
        return maintenance.reindex(progress);
    }

    /**
     * Checks both indexes: the model that made their vectors, the checksums of every segment file, that every stored
     * entry can be read; and lists this project's old GLOBAL entries that could not be moved to the shared index.
     */
    @Override
    public List<StoreProblem> doctor() {
        checkOpen();
        return maintenance.doctor();
    }

    /** Releases this provider's share of the indexes (the last provider on one closes it) and its model. */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            indexes.release();
        } finally {
            model.close();
        }
    }

    @Override
    public String toString() {
        return "VectorMemoryProvider[" + directory() + ", global=" + globalDirectory() + ", model=" + model.fingerprint() + "]";
    }
}
