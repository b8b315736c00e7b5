package dev.forge.memory.markdown;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.conformance.MemoryProviderConformance;
import dev.forge.memory.conformance.Reliability;
import dev.forge.memory.spi.ProviderContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The whole conformance suite against the markdown provider with {@code git: true}, in the soak form only
 * ({@code bin/soak provider-markdown}); every build runs the contracts that write ({@link MarkdownGitConformanceTest}).
 */
@Tag("reliability")
@EnabledIfSystemProperty(named = Reliability.SOAK_PROPERTY, matches = "true")
class MarkdownGitWholeSuiteTest extends MemoryProviderConformance {

    @Override
    protected MemoryProvider openProvider(ProviderContext context) {
        return MarkdownGitConformanceTest.openWithGit(context);
    }
}
