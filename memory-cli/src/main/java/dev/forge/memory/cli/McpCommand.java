package dev.forge.memory.cli;

import dev.forge.memory.MemoryProvider;
import dev.forge.memory.mcp.MemoryMcpServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code mcp}: serves the configured provider to an MCP client over stdio. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Serve the configured provider as an MCP server over stdio until the client closes stdin: tools "
                + "set, get, query, search, delete, relate, traverse, history and context, and memories as memory:// "
                + "resources. The provider is opened once, for the whole session.",
            "stdout carries only the protocol; logs go to stderr (everything with --verbose). Client configuration: "
                    + "docs/mcp.md."})
final class McpCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Override
    public Integer call() {
        // The protocol owns the process's stdout: anything else a library prints there goes to stderr instead.
        OutputStream protocol = new FileOutputStream(FileDescriptor.out);
        PrintStream stdout = System.out;
        System.setOut(System.err);
        try (MemoryProvider memory = cli.open()) {
            String version = ForgeMemoryCommand.class.getPackage().getImplementationVersion();
            MemoryMcpServer.builder(memory)
                    .version(version == null ? "development" : version)
                    .build()
                    .serveStdio(cli.stdin(), protocol);
        } finally {
            System.setOut(stdout);
        }
        return ExitCodes.OK;
    }
}
