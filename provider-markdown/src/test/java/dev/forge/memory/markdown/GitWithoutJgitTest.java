package dev.forge.memory.markdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.conformance.ChildJvm;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code git: true} in a JVM without JGit: the provider works, git is off, and it says why. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GitWithoutJgitTest {

    @TempDir
    Path base;

    @Test
    void without_jgit_on_the_class_path_writes_succeed_and_git_is_off_with_the_reason() throws Exception {
        List<String> command = ChildJvm.command(List.of("-XX:TieredStopAtLevel=1"), ChildWithoutJgit.class, base.toString());
        int classPath = command.indexOf("-cp") + 1;
        String withoutJgit = Arrays.stream(command.get(classPath).split(File.pathSeparator))
                .filter(entry -> !entry.contains("org.eclipse.jgit"))
                .collect(Collectors.joining(File.pathSeparator));
        assertThat(withoutJgit).isNotEqualTo(command.get(classPath));
        command.set(classPath, withoutJgit);

        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(child.exitValue()).as("the child's output:%n%s", output).isZero();

        assertThat(output).contains("read: written without JGit");
        assertThat(output.lines().filter(line -> line.startsWith("status: false JGit (org.eclipse.jgit) cannot be loaded"))
                .count()).as(output).isEqualTo(2);
        assertThat(output.lines().filter(line -> line.startsWith("problem: git is off: JGit")).count()).as(output)
                .isEqualTo(2);
        assertThat(output).contains("changes present: false");
        assertThat(Stores.memoryFiles(Stores.projectDirectory(base))).hasSize(1);
        assertThat(Stores.projectDirectory(base).resolve(".git")).doesNotExist();
    }
}
