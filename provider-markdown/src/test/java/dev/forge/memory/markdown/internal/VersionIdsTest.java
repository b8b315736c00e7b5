package dev.forge.memory.markdown.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class VersionIdsTest {

    @Test
    void new_ids_are_version_8_uuids_with_the_prefix_whose_first_eight_digits_are_the_keys_fingerprint() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String id = VersionIds.newId("build-tool");
            assertThat(id).matches("mem_[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            UUID uuid = UUID.fromString(id.substring(4));
            assertThat(uuid.version()).isEqualTo(8);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(id).startsWith("mem_1c420e00-");
            assertThat(MemoryFileCodec.isMemoryFileName(id + ".md")).isTrue();
            ids.add(id);
        }
        assertThat(ids).hasSize(1000);
    }

    @Test
    void the_fingerprint_is_the_start_of_the_sha_256_of_the_key_in_utf_8() {
        // What sha256sum prints for the same bytes.
        assertThat(VersionIds.fingerprint("build-tool")).isEqualTo("1c420e00");
        assertThat(VersionIds.fingerprint("caf\u00e9")).isEqualTo("850f7dc4");
    }

    @Test
    void an_id_may_belong_to_its_own_key_only_and_older_ids_to_no_key() {
        String id = VersionIds.newId("projects/app/notes");
        assertThat(VersionIds.mayBelongTo(id, "projects/app/notes")).isTrue();
        assertThat(VersionIds.mayBelongTo(id, "projects/app/note")).isFalse();
        assertThat(VersionIds.mayBelongTo(id, "Projects/app/notes")).isFalse();
        String version4 = "mem_" + UUID.randomUUID();
        assertThat(VersionIds.fingerprinted(version4)).isFalse();
        assertThat(VersionIds.mayBelongTo(version4, "projects/app/notes")).isFalse();
        String chosen = "mem_" + VersionIds.fingerprint("x") + "-by-hand";
        assertThat(VersionIds.fingerprinted(chosen)).isFalse();
        assertThat(VersionIds.mayBelongTo(chosen, "x")).isFalse();
    }
}
