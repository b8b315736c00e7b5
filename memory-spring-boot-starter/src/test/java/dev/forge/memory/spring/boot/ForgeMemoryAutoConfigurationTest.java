package dev.forge.memory.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.ConfigurationException;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Scope;
import dev.forge.memory.UnknownProviderException;
import dev.forge.memory.config.Memories;
import dev.forge.memory.springai.ForgeChatMemoryRepository;
import dev.forge.memory.springai.ForgeVectorStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;

/** The auto-configuration in real application contexts, on real files. */
class ForgeMemoryAutoConfigurationTest {

    @TempDir
    Path project;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ForgeMemoryAutoConfiguration.class));

    /** A runner whose environment holds {@code yaml} (as application.yaml would) and the project directory. */
    private ApplicationContextRunner withYaml(Resource yaml, String prefix) {
        return runner.withInitializer(context -> {
            try {
                for (PropertySource<?> source : new YamlPropertySourceLoader().load(yaml.getFilename(), yaml)) {
                    Map<String, Object> renamed = new java.util.LinkedHashMap<>();
                    MapPropertySource map = (MapPropertySource) source;
                    for (String name : map.getPropertyNames()) {
                        renamed.put(prefix + name, map.getProperty(name));
                    }
                    context.getEnvironment().getPropertySources().addLast(new MapPropertySource(yaml.getFilename(), renamed));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).withPropertyValues("forge.memory.project-directory=" + project);
    }

    @Test
    void a_good_configuration_opens_the_provider_offers_the_beans_and_closes_it_with_the_context() {
        AtomicReference<MemoryProvider> opened = new AtomicReference<>();
        withYaml(new ClassPathResource("application-sqlite.yaml"), "").run(context -> {
            assertThat(context).hasNotFailed();
            MemoryProvider provider = context.getBean(MemoryProvider.class);
            opened.set(provider);
            assertThat(provider.name()).isEqualTo("sqlite");
            assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(ForgeChatMemoryRepository.class);
            context.getBean(ChatMemoryRepository.class).saveAll("c1", List.of(new UserMessage("remember me")));
            VectorStore store = context.getBean(VectorStore.class);
            assertThat(store).isInstanceOf(ForgeVectorStore.class);
            store.add(List.of(new Document("d1", "sqlite keeps documents", Map.of())));
            assertThat(store.similaritySearch(SearchRequest.builder().query("documents").build()))
                    .extracting(Document::getId).containsExactly("d1");
        });
        assertThat(project.resolve("data/memory.db")).isRegularFile();
        assertThatThrownBy(() -> opened.get().get("chat:c1", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);

        withYaml(new ClassPathResource("application-sqlite.yaml"), "").run(context ->
                assertThat(context.getBean(ChatMemoryRepository.class).findByConversationId("c1"))
                        .containsExactly(new UserMessage("remember me")));
    }

    @Test
    void a_broken_configuration_fails_with_the_runtimes_message_for_the_same_block() throws IOException {
        Path seed = Path.of("src/test/resources/seeds/004/vector-provider.yaml");
        Path cliProject = Files.createDirectories(project.resolve("cli"));
        Files.createDirectories(cliProject.resolve(".forge"));
        Files.copy(seed, cliProject.resolve(".forge/config.yaml"));
        Path file = cliProject.resolve(".forge/config.yaml").toAbsolutePath().normalize();
        ConfigurationException fromFile = org.junit.jupiter.api.Assertions.assertThrows(ConfigurationException.class,
                () -> Memories.builder().projectDirectory(cliProject).plugins(false).open().close());

        withYaml(new FileSystemResource(seed), "forge.").run(context -> {
            assertThat(context).hasFailed();
            Throwable cause = rootMemoryException(context.getStartupFailure());
            assertThat(cause).isInstanceOf(ConfigurationException.class);
            String expected = fromFile.getMessage().replace(file.toString(), "vector-provider.yaml")
                    .replace("'memory.config", "'forge.memory.config");
            assertThat(cause.getMessage()).isEqualTo(expected).contains("'forge.memory.config.api_key'");
            org.springframework.boot.diagnostics.FailureAnalysis analysis = new ForgeMemoryFailureAnalyzer()
                    .analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo(expected);
            assertThat(analysis.getAction()).contains("forge.memory");
        });
    }

    @Test
    void an_unknown_provider_lists_the_ones_found_and_settings_without_a_provider_are_refused() {
        runner.withPropertyValues("forge.memory.provider=pinecone", "forge.memory.project-directory=" + project).run(context -> {
            Throwable cause = rootMemoryException(context.getStartupFailure());
            assertThat(cause).isInstanceOf(UnknownProviderException.class).hasMessageContaining("pinecone").hasMessageContaining("sqlite");
        });
        runner.withPropertyValues("forge.memory.config.path=x.db", "forge.memory.project-directory=" + project).run(context -> {
            Throwable cause = rootMemoryException(context.getStartupFailure());
            assertThat(cause).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("'forge.memory.config' is given without 'forge.memory.provider'");
        });
    }

    @Test
    void a_misspelled_forge_memory_setting_fails_the_start_naming_it() {
        runner.withPropertyValues("forge.memory.provder=sqlite", "forge.memory.project-directory=" + project).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("forge.memory.provder");
        });
    }

    @Test
    void without_a_provider_the_projects_config_file_decides_as_for_the_command_line() throws IOException {
        Files.createDirectories(project.resolve(".forge"));
        Files.copy(Path.of("src/test/resources/seeds/004/per-project.yaml"), project.resolve(".forge/config.yaml"));
        runner.withPropertyValues("forge.memory.project-directory=" + project).run(context -> {
            assertThat(context).hasNotFailed();
            MemoryProvider provider = context.getBean(MemoryProvider.class);
            assertThat(provider.name()).isEqualTo("file");
            provider.set("decision:db", "sqlite", Scope.PROJECT);
        });
        assertThat(project.resolve(".forge/memory")).isDirectory();
    }

    @Test
    void the_applications_own_beans_win_and_another_vector_store_type_turns_ours_off() {
        runner.withPropertyValues("forge.memory.provider=sqlite", "forge.memory.project-directory=" + project,
                        "spring.ai.vectorstore.type=pgvector")
                .withBean(ChatMemoryRepository.class, InMemoryChatMemoryRepository::new)
                .run(context -> {
                    assertThat(context).hasSingleBean(MemoryProvider.class);
                    assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(InMemoryChatMemoryRepository.class);
                    assertThat(context).doesNotHaveBean(VectorStore.class);
                });
    }

    @Test
    @SuppressWarnings("deprecation") // loadFactoryNames: the names only, without instantiating Boot's own analyzers
    void spring_boot_finds_the_auto_configuration_and_the_failure_analyzer() {
        ClassLoader loader = getClass().getClassLoader();
        assertThat(org.springframework.boot.context.annotation.ImportCandidates
                .load(org.springframework.boot.autoconfigure.AutoConfiguration.class, loader))
                .contains(ForgeMemoryAutoConfiguration.class.getName());
        assertThat(org.springframework.core.io.support.SpringFactoriesLoader
                .loadFactoryNames(org.springframework.boot.diagnostics.FailureAnalyzer.class, loader))
                .contains(ForgeMemoryFailureAnalyzer.class.getName());
    }

    private static Throwable rootMemoryException(Throwable failure) {
        Throwable t = failure;
        while (t != null && !(t instanceof dev.forge.memory.MemoryException)) {
            t = t.getCause();
        }
        return t == null ? failure : t;
    }
}
