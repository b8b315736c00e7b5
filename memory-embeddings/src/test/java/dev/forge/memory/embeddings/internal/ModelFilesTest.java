package dev.forge.memory.embeddings.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hash that identifies a model file: recognised from its jar entry where the file is one of the known releases,
 * and always the one a digest of its bytes gives.
 */
class ModelFilesTest {

    static List<LocalModelSpec> specs() {
        return List.of(LocalModelSpec.MINILM, LocalModelSpec.BGE_SMALL, LocalModelSpec.E5_SMALL);
    }

    @ParameterizedTest
    @MethodSource("specs")
    void the_model_file_on_the_class_path_is_recognised_from_its_jar_entry_with_the_hash_its_bytes_give(LocalModelSpec spec) {
        assertThat(ModelFiles.recognised(spec))
                .as("the release of %s on the class path is in ModelFiles.KNOWN (after an upgrade of the model artifact, "
                        + "record its entry's size, CRC-32 and this hash there)", spec.modelFile())
                .contains(ModelFiles.digest(spec));
    }

    @ParameterizedTest
    @MethodSource("specs")
    void the_identity_carries_the_hash_of_the_bytes(LocalModelSpec spec) {
        assertThat(ModelFiles.identity(spec).modelSha256()).isEqualTo(ModelFiles.digest(spec)).hasSize(12);
    }
}
