package dev.forge.memory.conformance;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The whole conformance suite. A provider's test extends this class and says how to open the provider:
 *
 * <pre>{@code
 * class SqliteConformanceTest extends MemoryProviderConformance {
 *     @Override
 *     protected MemoryProvider openProvider(ProviderContext context) {
 *         return new SqliteMemoryProviderFactory().open(context);
 *     }
 * }
 * }</pre>
 *
 * <p>Each contract runs as a nested group. Tests of a capability the provider does not report are skipped
 * with the reason; for each missing capability, other tests check it is refused cleanly. A capability the provider
 * reports wrongly fails once, in the {@code Capabilities} group; the tests that depend on it are skipped naming that
 * check.
 *
 * <p>The suite runs on the JUnit Platform: with Maven, use maven-surefire-plugin 3.x (or 2.22.x). An older Surefire
 * runs none of it and would report success; see {@link #testRunsOnTheJUnitPlatform()}.
 */
public abstract class MemoryProviderConformance {

    /**
     * Not a test on the JUnit Platform, which ignores it. A runner that does not know JUnit 5, such as Surefire before
     * 2.22 (its plain-class provider runs every public {@code test*()} method of a public class with a public
     * constructor), would run none of the suite and report success; it calls this method instead, which fails the
     * build with the fix.
     *
     * @throws AssertionError always: this method only runs under a runner that cannot run the suite
     */
    public void testRunsOnTheJUnitPlatform() {
        throw new AssertionError("The forge-memory conformance suite is JUnit 5 (JUnit Platform) tests, and this"
                + " test runner cannot run them: it called " + getClass().getName() + ".testRunsOnTheJUnitPlatform()"
                + " as a plain test method, so none of the suite ran. Use maven-surefire-plugin 3.x (or 2.22.x; no extra"
                + " provider needed), or Gradle's useJUnitPlatform(). See docs/writing-a-provider.md.");
    }

    /**
     * Opens the provider under test on the store that belongs to {@code context.baseDirectory()}: the same
     * directory must give the same store (so that a reopen sees what was written), a new directory an empty
     * one. The context carries the project id, session id and clock the provider must use.
     */
    protected abstract MemoryProvider openProvider(ProviderContext context);

    /**
     * {@code context} with {@code settings} added to its config block: how a provider test gives its own settings
     * while those a contract puts in the context (the SearchFields group's {@code search_fields}) still reach the
     * provider. A setting the context already holds is kept.
     */
    protected static ProviderContext withSettings(ProviderContext context, Map<String, ?> settings) {
        Map<String, Object> values = new LinkedHashMap<>(settings);
        values.putAll(context.config().values());
        return context.withConfig(ProviderConfig.of(values, context.config().source(), context.config().path()));
    }

    /** Get, set, overwrite, delete and clear: versions, timestamps, tags and metadata round-trip exactly. */
    @Nested
    @DisplayName("Core")
    class Core extends CoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Scopes and isolation: projects and sessions on one store never see or touch each other's entries. */
    @Nested
    @DisplayName("Scopes")
    class Scopes extends ScopeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /**
     * Whether the provider keeps GLOBAL in one store under the user's forge home, shared by every project whatever
     * its directory: true by default, as every persistent provider must; a provider whose stores live in one JVM's
     * memory returns false, and the SharedGlobal group is skipped naming this method.
     */
    protected boolean sharesGlobalThroughForgeHome() {
        return true;
    }

    /** GLOBAL is one store per user: two projects in two directories share it, and nothing else. */
    @Nested
    @DisplayName("SharedGlobal")
    class SharedGlobal extends SharedGlobalContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }

        @Override
        protected boolean sharesGlobalThroughForgeHome() {
            return MemoryProviderConformance.this.sharesGlobalThroughForgeHome();
        }
    }

    /** Query patterns, filters, order, limit and offset. */
    @Nested
    @DisplayName("Queries")
    class Queries extends QueryContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Keyword search: matching, ranking, scores, threshold, limit, scopes and filters. */
    @Nested
    @DisplayName("KeywordSearch")
    class KeywordSearch extends KeywordSearchContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Semantic and hybrid search where offered; a clean refusal where not. */
    @Nested
    @DisplayName("SemanticSearch")
    class SemanticSearch extends SemanticSearchContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Typed relations: relate, unrelate, relations, traverse, cascades and isolation. */
    @Nested
    @DisplayName("Graph")
    class Graph extends GraphContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /**
     * Whether the provider's graph keeps the time a relation is restored with ({@code MemoryGraph.restore}): true by
     * default, as every bundled provider's graph does; one that keeps the API's default restore (the
     * provider's own time) returns false, and the RelationTimes group is skipped naming this method.
     */
    protected boolean restoresRelationTimes() {
        return true;
    }

    /** Relations restored with their time, directly and through export and import. */
    @Nested
    @DisplayName("RelationTimes")
    class RelationTimes extends RelationTimeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }

        @Override
        protected boolean restoresRelationTimes() {
            return MemoryProviderConformance.this.restoresRelationTimes();
        }
    }

    /** Transactions: atomic commit, rollback, isolation of uncommitted writes. */
    @Nested
    @DisplayName("Transactions")
    class Transactions extends TransactionContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Many writes in one call of a transaction: as sets in sequence, all checked before any is buffered. */
    @Nested
    @DisplayName("SetAll")
    class SetAll extends SetAllContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Version history: every version of a key, oldest first. */
    @Nested
    @DisplayName("History")
    class History extends HistoryContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Many threads at once: nothing lost, versions monotonic per key. */
    @Nested
    @DisplayName("Concurrency")
    class Concurrency extends ConcurrencyContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Bad input: clear typed errors that change nothing; awkward but valid input stored exactly. */
    @Nested
    @DisplayName("BadInput")
    class BadInput extends BadInputContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Durability: write, close, reopen the same store, everything still there. */
    @Nested
    @DisplayName("Durability")
    class Durability extends DurabilityContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Capabilities: the reported set matches the facets; a missing capability is refused cleanly. */
    @Nested
    @DisplayName("Capabilities")
    class Capabilities extends CapabilityContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Rebuilding derived indexes where offered: nothing changes but the indexes. */
    @Nested
    @DisplayName("Reindex")
    class Reindex extends ReindexContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Restoring entries as exported (versions, timestamps, history) where offered. */
    @Nested
    @DisplayName("Restore")
    class Restore extends RestoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Field indexes where offered: indexing changes no query result, twice as once; bad field names refused. */
    @Nested
    @DisplayName("FieldIndex")
    class FieldIndex extends FieldIndexContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** The search_fields setting where the provider's factory has it: metadata fields it names are keyword-searched. */
    @Nested
    @DisplayName("SearchFields")
    class SearchFields extends SearchFieldsContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Export, import and migration into a fresh store of the same provider: nothing lost, idempotent, all or nothing. */
    @Nested
    @DisplayName("Transfer")
    class Transfer extends TransferContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }

        @Override
        protected boolean restoresRelationTimes() {
            return MemoryProviderConformance.this.restoresRelationTimes();
        }
    }

    /** Consolidation and prompt context through the public API: nothing lost, failures change nothing, pages cover all. */
    @Nested
    @DisplayName("Consolidation")
    class ConsolidationAndContext extends ConsolidationContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }

    /** Layered plugin memory on this provider: the Last Updated line, review history pruning, staleness. */
    @Nested
    @DisplayName("Lifecycle")
    class Lifecycle extends LifecycleContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return MemoryProviderConformance.this.openProvider(context);
        }
    }
}
