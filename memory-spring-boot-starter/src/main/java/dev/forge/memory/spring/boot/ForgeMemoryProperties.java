package dev.forge.memory.spring.boot;

import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.springai.ForgeChatMemoryRepository;
import dev.forge.memory.springai.ForgeVectorStore;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code forge.memory} settings of {@code application.yaml}. {@code provider} and {@code config} mean what
 * {@code memory.provider} and {@code memory.config} mean in {@code .forge/config.yaml}, with the same keys and the
 * same errors; without {@code provider}, the provider is the one the project's and the user's config files select,
 * as for the command line. Unknown keys under {@code forge.memory} (outside {@code config}) are refused.
 */
@ConfigurationProperties(prefix = "forge.memory", ignoreUnknownFields = false)
public class ForgeMemoryProperties {

    private String provider;
    private Map<String, Object> config = new LinkedHashMap<>();
    private String project;
    private Path projectDirectory = Path.of("");
    private String session;
    private final Chat chat = new Chat();
    private final VectorStore vectorStore = new VectorStore();

    /** The provider's name ({@code memory.provider}); none: the config files decide, as for the command line. */
    public String getProvider() {
        return provider;
    }

    /** Sets the provider's name. */
    public void setProvider(String provider) {
        this.provider = provider;
    }

    /** The provider's settings ({@code memory.config}), as bound by Spring; the auto-configuration reads them as written. */
    public Map<String, Object> getConfig() {
        return config;
    }

    /** Sets the provider's settings. */
    public void setConfig(Map<String, Object> config) {
        this.config = config;
    }

    /** The project id ({@code memory.project}); default: the project directory's name. Only with {@code provider}. */
    public String getProject() {
        return project;
    }

    /** Sets the project id. */
    public void setProject(String project) {
        this.project = project;
    }

    /** The project directory: relative paths resolve against it, and its {@code .forge/config.yaml} is read without {@code provider}. */
    public Path getProjectDirectory() {
        return projectDirectory;
    }

    /** Sets the project directory. */
    public void setProjectDirectory(Path projectDirectory) {
        this.projectDirectory = projectDirectory;
    }

    /** The session id; default: a new random one for each application context. */
    public String getSession() {
        return session;
    }

    /** Sets the session id. */
    public void setSession(String session) {
        this.session = session;
    }

    /** The chat memory repository's settings. */
    public Chat getChat() {
        return chat;
    }

    /** The vector store's settings. */
    public VectorStore getVectorStore() {
        return vectorStore;
    }

    /** {@code forge.memory.chat}: where conversations are kept. */
    public static class Chat {
        private Scope scope = Scope.PROJECT;
        private String keyPrefix = ForgeChatMemoryRepository.DEFAULT_KEY_PREFIX;

        /** The scope of conversations (default project). */
        public Scope getScope() {
            return scope;
        }

        /** Sets the scope of conversations. */
        public void setScope(Scope scope) {
            this.scope = scope;
        }

        /** The prefix of conversation keys (default {@code chat:}). */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /** Sets the prefix of conversation keys. */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }
    }

    /** {@code forge.memory.vector-store}: where documents are kept and how they are searched. */
    public static class VectorStore {
        private Scope scope = Scope.PROJECT;
        private String collection = ForgeVectorStore.DEFAULT_COLLECTION;
        private SearchMode searchMode = SearchMode.SEMANTIC;

        /** The scope of documents (default project). */
        public Scope getScope() {
            return scope;
        }

        /** Sets the scope of documents. */
        public void setScope(Scope scope) {
            this.scope = scope;
        }

        /** The collection (default {@code doc}). */
        public String getCollection() {
            return collection;
        }

        /** Sets the collection. */
        public void setCollection(String collection) {
            this.collection = collection;
        }

        /** How similarity search matches (default semantic; keyword for providers without embeddings). */
        public SearchMode getSearchMode() {
            return searchMode;
        }

        /** Sets how similarity search matches. */
        public void setSearchMode(SearchMode searchMode) {
            this.searchMode = searchMode;
        }
    }
}
