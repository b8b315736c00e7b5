package dev.forge.memory.spring.boot;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.springai.ForgeChatMemoryRepository;
import dev.forge.memory.springai.ForgeVectorStore;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Opens the forge-memory provider {@code forge.memory} configures (see {@link ForgeMemoryProperties}) and closes it
 * with the application context; offers it as a Spring AI {@link ChatMemoryRepository} and {@link VectorStore}. Each
 * bean steps aside for one the application defines. It runs before Spring AI's chat memory auto-configuration, whose
 * in-memory repository would otherwise take the {@link ChatMemoryRepository} slot; the vector store is offered unless
 * {@code spring.ai.vectorstore.type} names another store.
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@EnableConfigurationProperties(ForgeMemoryProperties.class)
public class ForgeMemoryAutoConfiguration {

    /** The provider; closed when the context closes. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public MemoryProvider forgeMemoryProvider(ForgeMemoryProperties properties, ConfigurableEnvironment environment) {
        String source = SpringConfigTree.origin(environment, "forge.memory.provider", "the Spring environment");
        return ForgeMemoryOpener.open(properties, SpringConfigTree.read(environment, ForgeMemoryOpener.CONFIG_PATH), source);
    }

    /** Conversations kept in the provider, one memory each ({@code forge.memory.chat}). */
    @Bean
    @ConditionalOnMissingBean(ChatMemoryRepository.class)
    public ForgeChatMemoryRepository forgeChatMemoryRepository(MemoryProvider provider, ForgeMemoryProperties properties) {
        return ForgeChatMemoryRepository.builder(provider).scope(properties.getChat().getScope())
                .keyPrefix(properties.getChat().getKeyPrefix()).build();
    }

    /** Documents kept in the provider and found with its search ({@code forge.memory.vector-store}). */
    @Bean
    @ConditionalOnMissingBean(VectorStore.class)
    @ConditionalOnProperty(name = "spring.ai.vectorstore.type", havingValue = "forge", matchIfMissing = true)
    public ForgeVectorStore forgeVectorStore(MemoryProvider provider, ForgeMemoryProperties properties) {
        ForgeMemoryProperties.VectorStore settings = properties.getVectorStore();
        return ForgeVectorStore.builder(provider).scope(settings.getScope()).collection(settings.getCollection())
                .searchMode(settings.getSearchMode()).build();
    }
}
