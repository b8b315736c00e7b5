package dev.forge.memory.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.Scope;
import dev.forge.memory.hybrid.internal.Outbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The outbox file's format: records written before restores came read as they always did, next to restore records. */
class OutboxFormatTest {

    @TempDir
    Path directory;

    @Test
    void records_of_earlier_versions_read_as_before_and_a_restore_record_round_trips() throws Exception {
        Files.writeString(directory.resolve(Outbox.FILE_NAME), String.join("\n",
                "{\"id\":\"1\",\"target\":\"t\",\"child\":\"search\",\"op\":\"sync\",\"project\":\"p\",\"session\":\"s\","
                        + "\"scope\":\"project\",\"key\":\"a\"}",
                "{\"id\":\"2\",\"target\":\"t\",\"child\":\"relationships\",\"op\":\"reset\",\"project\":\"p\","
                        + "\"session\":\"s\",\"scope\":\"global\",\"key\":\"b\",\"attempts\":2,\"error\":\"refused\"}",
                "{\"id\":\"3\",\"target\":\"t\",\"child\":\"search\",\"op\":\"clear\",\"project\":\"p\",\"session\":\"s\","
                        + "\"scope\":\"session\",\"key\":\"\"}", ""));
        Outbox outbox = Outbox.open(directory);
        try {
            outbox.append(List.of(Outbox.Entry.of("t", Outbox.Child.SEARCH, Outbox.Op.RESTORE, "p", "s", Scope.PROJECT, "c")));

            assertThat(outbox.entries()).extracting(Outbox.Entry::op)
                    .containsExactly(Outbox.Op.SYNC, Outbox.Op.RESET, Outbox.Op.CLEAR, Outbox.Op.RESTORE);
            assertThat(outbox.entries().get(1).attempts()).isEqualTo(2);
            assertThat(outbox.entries().get(3).key()).isEqualTo("c");
        } finally {
            outbox.close();
        }
    }
}
