package dev.forge.memory.spring.boot;

import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Shows a start that failed on forge-memory as its message, which says what is wrong and what to do, instead of a
 * stack trace of bean creation.
 */
public class ForgeMemoryFailureAnalyzer extends AbstractFailureAnalyzer<MemoryException> {

    /** Creates the analyzer; Spring Boot finds it through {@code META-INF/spring.factories}. */
    public ForgeMemoryFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MemoryException cause) {
        String action = cause instanceof ConfigurationException
                ? "Correct the forge.memory settings of the application (or the config file the message names); "
                        + "the keys of forge.memory.config are those of the provider's page in docs/providers."
                : "See the message above; the provider was named by forge.memory.provider or the project's .forge/config.yaml.";
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }
}
