package dev.forge.memory.vector;

import dev.forge.memory.BackendUnavailableException;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.MemoryEntry;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.Query;
import dev.forge.memory.Scope;
import dev.forge.memory.SearchMode;
import dev.forge.memory.SearchRequest;
import dev.forge.memory.StoreProblem;
import dev.forge.memory.conformance.ChildJvm;
import dev.forge.memory.vector.internal.Documents;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Durability, sharing of one index in a JVM, refusal by a second process, and damaged index files. */
class VectorLifecycleTest {

    @TempDir
    Path base;

    private Path indexDirectory() {
        return base.resolve(".forge/vectors");
    }

    @Test
    void every_acknowledged_write_is_in_the_last_commit_before_the_provider_closes() throws IOException {
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("k1", "first value", Scope.PROJECT);
            provider.set("k2", "second value", Scope.PROJECT);
            provider.delete("k1", Scope.PROJECT);
            // a reader of the last commit, not the writer's near-real-time view: what a crash now would leave
            try (FSDirectory dir = FSDirectory.open(indexDirectory()); DirectoryReader commit = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(commit);
                String ns = Documents.namespace(Scope.PROJECT, "p", "session-1");
                assertThat(searcher.count(new TermQuery(new Term(Documents.ID, Documents.id(ns, "k2"))))).isEqualTo(1);
                assertThat(searcher.count(new TermQuery(new Term(Documents.ID, Documents.id(ns, "k1"))))).isZero();
                assertThat(commit.getIndexCommit().getUserData()).containsEntry("forge.vector.complete", "true")
                        .containsKey("forge.vector.fingerprint");
            }
        }
    }

    @Test
    void entries_and_vectors_survive_a_reopen() {
        MemoryEntry written;
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            written = provider.set("cache", "The cache expires entries after ten minutes", Scope.PROJECT, List.of("ops"), Map.of("n", 1.5));
            provider.set("other", "Roses need water every morning", Scope.PROJECT);
        }
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            assertThat(provider.get("cache", Scope.PROJECT)).contains(written);
            for (SearchMode mode : SearchMode.values()) {
                assertThat(provider.search(SearchRequest.builder("cache expires entries").mode(mode).build()).get(0).entry())
                        .as("%s", mode).isEqualTo(written);
            }
            assertThat(provider.doctor()).isEmpty();
        }
    }

    @Test
    void providers_on_one_directory_in_one_jvm_share_the_index() {
        MemoryProvider first = VectorStores.open(base, "p", Map.of());
        MemoryProvider second = VectorStores.open(base, "p", Map.of());
        MemoryProvider otherProject = VectorStores.open(base, "q", Map.of());
        try {
            MemoryEntry written = first.set("k", "shared value", Scope.PROJECT);
            assertThat(second.get("k", Scope.PROJECT)).contains(written);
            assertThat(second.set("k", "second writer", Scope.PROJECT).version()).isEqualTo(2);
            otherProject.set("g", "global from q", Scope.GLOBAL);
            first.close();
            assertThat(second.get("g", Scope.GLOBAL)).isPresent();
            assertThat(second.search(SearchRequest.builder("second writer").mode(SearchMode.SEMANTIC).build())).hasSize(2);
            assertThatThrownBy(() -> first.get("k", Scope.PROJECT)).isInstanceOf(BackendUnavailableException.class);
        } finally {
            first.close();
            second.close();
            otherProject.close();
        }
        try (MemoryProvider reopened = VectorStores.open(base, "p", Map.of())) {
            assertThat(reopened.get("k", Scope.PROJECT).orElseThrow().version()).isEqualTo(2);
        }
    }

    @Test
    void a_second_process_is_refused_while_one_has_the_index_open_and_opens_it_after() throws Exception {
        Path report = base.resolve("child-report.txt");
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("k", "v", Scope.PROJECT);
            assertThat(runChild(report)).isZero();
            assertThat(Files.readString(report)).startsWith("refused ").contains("another process").contains("write.lock")
                    .contains(indexDirectory().toRealPath().toString());
            assertThat(provider.get("k", Scope.PROJECT)).isPresent();
        }
        Files.delete(report);
        assertThat(runChild(report)).isZero();
        assertThat(Files.readString(report)).isEqualTo("opened true");
    }

    private int runChild(Path report) throws Exception {
        Process child = new ProcessBuilder(ChildJvm.command(List.of("-Xmx128m"), VectorChildOpener.class, base.toString(), report.toString()))
                .redirectErrorStream(true).redirectOutput(base.resolve("child-output.txt").toFile()).start();
        assertThat(child.waitFor(5, TimeUnit.MINUTES)).as("child finished").isTrue();
        return child.exitValue();
    }

    @Test
    void a_damaged_commit_file_is_a_corrupt_entry_error_and_the_files_stay_as_they_were() throws IOException {
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("k", "v", Scope.PROJECT);
        }
        Path segments = newest("segments_");
        byte[] bytes = Files.readAllBytes(segments);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(segments, bytes);
        assertThatThrownBy(() -> VectorStores.open(base, "p", Map.of())).isInstanceOfSatisfying(CorruptEntryException.class,
                e -> assertThat(e.getMessage()).contains(indexDirectory().toString().substring(base.toString().length()))
                        .contains("damaged").contains("re-import"));
        assertThat(Files.readAllBytes(segments)).isEqualTo(bytes);
    }

    @Test
    void a_damaged_segment_file_read_at_open_is_a_corrupt_entry_error() throws IOException {
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            for (int i = 0; i < 3; i++) {
                provider.set("k" + i, "value number " + i, Scope.PROJECT);
            }
        }
        Path largest = largestCompoundFile();
        byte[] bytes = Files.readAllBytes(largest);
        bytes[bytes.length / 2] ^= 0x5a;
        Files.write(largest, bytes);
        assertThatThrownBy(() -> VectorStores.open(base, "p", Map.of())).isInstanceOfSatisfying(CorruptEntryException.class,
                e -> assertThat(e.getMessage()).contains(largest.getFileName().toString()).contains("damaged"));
        assertThat(Files.readAllBytes(largest)).isEqualTo(bytes);
    }

    @Test
    void a_damaged_stored_entry_is_found_by_doctor() throws IOException {
        String marker = "QXJVWPBZ"; // upper case: the index holds its terms lower-cased, so this is the stored JSON
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            provider.set("marked", "the value holds " + marker, Scope.PROJECT);
        }
        Path file = largestCompoundFile();
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, marker.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(at).as("the stored JSON is in the compound file uncompressed").isNotNegative();
        bytes[at + 3] ^= 0x01;
        Files.write(file, bytes);
        try (MemoryProvider provider = VectorStores.open(base, "p", Map.of())) {
            List<StoreProblem> problems = provider.doctor();
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0).problem()).contains("damaged").contains("re-import");
        }
    }

    private Path largestCompoundFile() throws IOException {
        try (Stream<Path> files = Files.list(indexDirectory())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".cfs"))
                    .max(Comparator.comparingLong(p -> p.toFile().length())).orElseThrow();
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void a_directory_holding_a_foreign_lucene_index_is_left_alone() throws IOException {
        Files.createDirectories(indexDirectory());
        try (FSDirectory dir = FSDirectory.open(indexDirectory());
             org.apache.lucene.index.IndexWriter writer = new org.apache.lucene.index.IndexWriter(dir,
                     new org.apache.lucene.index.IndexWriterConfig())) {
            org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
            doc.add(new org.apache.lucene.document.StringField("title", "someone else's", org.apache.lucene.document.Field.Store.YES));
            writer.addDocument(doc);
        }
        assertThatThrownBy(() -> VectorStores.open(base, "p", Map.of()))
                .isInstanceOf(dev.forge.memory.ConfigurationException.class).hasMessageContaining("did not write");
        try (FSDirectory dir = FSDirectory.open(indexDirectory()); DirectoryReader reader = DirectoryReader.open(dir)) {
            assertThat(reader.numDocs()).isEqualTo(1);
        }
    }

    @Test
    void queries_after_close_fail_and_the_index_can_be_opened_again() {
        MemoryProvider provider = VectorStores.open(base, "p", Map.of());
        provider.set("k", "v", Scope.PROJECT);
        provider.close();
        assertThatThrownBy(() -> provider.query(Query.builder().build())).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.doctor()).isInstanceOf(BackendUnavailableException.class);
        assertThatThrownBy(() -> provider.requireReindexing().reindex()).isInstanceOf(BackendUnavailableException.class);
        try (MemoryProvider again = VectorStores.open(base, "p", Map.of())) {
            assertThat(again.query(Query.builder().build())).hasSize(1);
        }
    }

    private Path newest(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(indexDirectory())) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix))
                    .max(Comparator.comparing(p -> p.getFileName().toString().length() * 1000L
                            + Long.parseLong(p.getFileName().toString().substring(prefix.length()), Character.MAX_RADIX)))
                    .orElseThrow();
        }
    }
}
