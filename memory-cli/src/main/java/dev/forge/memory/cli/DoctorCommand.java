package dev.forge.memory.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.MemoryProvider;
import dev.forge.memory.StoreProblem;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code doctor}: what the provider finds wrong with the stored data. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check the stored memories of the configured provider and list what is wrong with them, one "
                + "'LOCATION: PROBLEM' line each: files that cannot be read and are skipped, broken version chains, "
                + "relations that cannot be followed. Reading goes on around such problems; this is how to find them.",
            "With --json, {\"provider\", \"problems\": [{\"location\", \"problem\"}, ...]}.",
            "What is checked is up to the provider; one that checks nothing always reports no problems.",
            "Exits 0 if no problems were found, 6 if some were."})
final class DoctorCommand implements Callable<Integer> {

    @ParentCommand
    ForgeMemoryCommand cli;

    @Override
    public Integer call() {
        String provider;
        List<StoreProblem> problems;
        try (MemoryProvider memory = cli.open()) {
            provider = memory.name();
            problems = memory.doctor();
        }
        if (cli.json) {
            ObjectNode document = Json.object();
            document.put("provider", provider);
            ArrayNode array = document.putArray("problems");
            for (StoreProblem problem : problems) {
                array.addObject().put("location", problem.location()).put("problem", problem.problem());
            }
            cli.printJson(document);
        } else if (problems.isEmpty()) {
            // The API cannot tell "checked and found nothing" from "has nothing to check": say only what is known.
            cli.println("No problems found by the " + provider + " provider.");
        } else {
            // One line each, whatever a location or message holds, so that the output stays one problem per line.
            problems.forEach(p -> cli.out().println(ExitCodes.oneLine(p.location()) + ": " + ExitCodes.oneLine(p.problem())));
            cli.out().flush();
        }
        return problems.isEmpty() ? ExitCodes.OK : ExitCodes.PROBLEMS_FOUND;
    }
}
