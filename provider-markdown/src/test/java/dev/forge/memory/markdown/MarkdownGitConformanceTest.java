package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.ConcurrencyContract;
import dev.forge.memory.conformance.CoreContract;
import dev.forge.memory.conformance.DurabilityContract;
import dev.forge.memory.conformance.GraphContract;
import dev.forge.memory.conformance.HistoryContract;
import dev.forge.memory.conformance.LifecycleContract;
import dev.forge.memory.conformance.RestoreContract;
import dev.forge.memory.conformance.ScopeContract;
import dev.forge.memory.conformance.TransactionContract;
import dev.forge.memory.conformance.TransferContract;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.ProviderContext;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/**
 * The conformance contracts that write, against the markdown provider with {@code git: true}: committing every write
 * (entries, relations, deletions, transactions, restores, imports, from many threads) changes nothing a caller sees.
 * The contracts that only read what was written (queries, keyword and semantic search, bad input, capabilities,
 * reindex, consolidation) see the same files as without git and run in {@link MarkdownConformanceTest};
 * {@link MarkdownGitWholeSuiteTest} runs the whole suite with git in the soak form.
 */
class MarkdownGitConformanceTest {

    static MemoryProvider openWithGit(ProviderContext context) {
        return new MarkdownMemoryProviderFactory().open(context.withConfig(ProviderConfig.of(
                Map.of("path", "projects/{project}/memory", "git", true, "fsync", false))));
    }

    @Nested
    class Core extends CoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Scopes extends ScopeContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Graph extends GraphContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Transactions extends TransactionContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class History extends HistoryContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Concurrency extends ConcurrencyContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Durability extends DurabilityContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Restore extends RestoreContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Transfer extends TransferContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }

    @Nested
    class Lifecycle extends LifecycleContract {
        @Override
        protected MemoryProvider openProvider(ProviderContext context) {
            return openWithGit(context);
        }
    }
}
