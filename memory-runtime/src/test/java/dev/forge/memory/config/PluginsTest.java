package dev.forge.memory.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.spi.MemoryProviderFactory;
import dev.forge.memory.spi.ProviderRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plugin folders: which jars load, and how a jar that cannot be used is reported. */
class PluginsTest {

    private static final String SERVICE_FILE = "META-INF/services/" + MemoryProviderFactory.class.getName();

    @TempDir
    Path folder;

    private Path jar(String name, String serviceFile) throws IOException {
        Path jar = folder.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(SERVICE_FILE));
            out.write(serviceFile.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }

    @Test
    void a_service_file_naming_a_class_that_is_nowhere_is_reported_with_the_jar_and_the_class() throws IOException {
        Path jar = jar("acme-provider.jar", "# the factory\ncom.acme.memory.AcmeProviderFactory # not packaged\n");

        Plugins plugins = Plugins.load(getClass().getClassLoader(), List.of(folder));

        assertThat(plugins.jars()).containsExactly(jar);
        assertThat(plugins.problems()).singleElement().asString()
                .contains(jar.toString()).contains("com.acme.memory.AcmeProviderFactory").contains(SERVICE_FILE);
        ProviderRegistry registry = ProviderRegistry.load(plugins.classLoader()).withProblems(plugins.problems());
        assertThat(registry.names()).as("the other providers still load").contains("in-memory");
    }

    @Test
    void a_service_file_naming_a_host_class_is_not_a_problem() throws IOException {
        jar("reexport.jar", "dev.forge.memory.inmemory.InMemoryMemoryProviderFactory\n");

        Plugins plugins = Plugins.load(getClass().getClassLoader(), List.of(folder));

        assertThat(plugins.problems()).isEmpty();
    }
}
