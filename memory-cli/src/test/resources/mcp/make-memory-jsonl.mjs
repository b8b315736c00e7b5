// Makes memory.jsonl and official-answers.json beside this script with the official MCP memory server itself:
// starts it over stdio (MEMORY_FILE_PATH pointing here) with the MCP SDK's own client, calls its tools as an agent
// would, and records every call with what the server answered (its structuredContent), in order. Run from the
// repository root, after `npm ci --prefix benchmarks/mcp` (the server and SDK versions pinned there):
//   node memory-cli/src/test/resources/mcp/make-memory-jsonl.mjs
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join, resolve } from "node:path";
import { rmSync, writeFileSync } from "node:fs";

const here = dirname(fileURLToPath(import.meta.url));
const modules = resolve(here, "../../../../../benchmarks/mcp/node_modules");
const sdk = (path) => import(pathToFileURL(join(modules, "@modelcontextprotocol/sdk/dist/esm", path)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");

const memoryFile = join(here, "memory.jsonl");
rmSync(memoryFile, { force: true });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(modules, "@modelcontextprotocol/server-memory/dist/index.js")],
  env: { ...process.env, MEMORY_FILE_PATH: memoryFile },
  stderr: "ignore",
});
const client = new Client({ name: "forge-memory-fixture", version: "1.0.0" });
await client.connect(transport);

const answers = [];
async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  }
  answers.push({ tool: name, arguments: args, result: result.structuredContent });
  return result.structuredContent;
}

await call("create_entities", { entities: [
  { name: "default_user", entityType: "person", observations: [
    "Prefers concise answers", "Works in Berlin", "Uses IntelliJ IDEA and the terminal"] },
  { name: "Zoë Müller", entityType: "person", observations: [
    "Tech lead of the payments team", "Speaks German, English and a little Japanese (日本語)"] },
  { name: "zoë müller", entityType: "person", observations: ["A different person: a student with the same name in lower case"] },
  { name: "Acme Corp", entityType: "organization", observations: ["Employer of default_user since 2021"] },
  { name: "project:forge-memory", entityType: "project", observations: [
    "Java 17, Maven multi-module",
    "Decision: SQLite is the default store for teams.\nReason: one file, real transactions.",
    "Path on disk: C:\\work\\forge-memory (Windows) or ~/work/forge-memory",
    "Quoted: \"long-term memory\" for agents"] },
  { name: "../etc/passwd", entityType: "test fixture", observations: ["A name that looks like a path must stay a name"] },
  { name: "Empty", entityType: "Concept", observations: [] },
  { name: "No observations", entityType: "", observations: [] },
  { name: "🚀 Launch plan", entityType: "event", observations: ["Launch on 2026-12-01", "Owner: Zoë Müller"] },
] });
// Already there: the official server skips it and returns nothing for it.
await call("create_entities", { entities: [{ name: "Acme Corp", entityType: "company", observations: ["ignored"] }] });

await call("create_relations", { relations: [
  { from: "default_user", to: "Acme Corp", relationType: "works_at" },
  { from: "Zoë Müller", to: "Acme Corp", relationType: "works at" },
  { from: "default_user", to: "Zoë Müller", relationType: "reports to" },
  { from: "default_user", to: "project:forge-memory", relationType: "contributes_to" },
  { from: "🚀 Launch plan", to: "project:forge-memory", relationType: "is-part-of" },
  { from: "default_user", to: "default_user", relationType: "knows" },
  { from: "zoë müller", to: "Zoë Müller", relationType: "is not the same as" },
] });
await call("create_relations", { relations: [{ from: "default_user", to: "Acme Corp", relationType: "works_at" }] });

await call("add_observations", { observations: [
  { entityName: "default_user", contents: ["Prefers concise answers", "Likes tables over prose", "On call in week 49"] },
  { entityName: "Empty", contents: [""] },
] });
await call("delete_observations", { deletions: [{ entityName: "default_user", observations: ["On call in week 49"] }] });
await call("create_entities", { entities: [{ name: "Temporary", entityType: "note", observations: ["to be deleted"] }] });
await call("create_relations", { relations: [{ from: "Temporary", to: "Acme Corp", relationType: "mentions" }] });
await call("delete_entities", { entityNames: ["Temporary", "Never existed"] });
await call("delete_relations", { relations: [{ from: "default_user", to: "default_user", relationType: "knows" }] });

await call("read_graph", {});
await call("search_nodes", { query: "ZOË" });
await call("search_nodes", { query: "acme" });
await call("search_nodes", { query: "tables over" });
await call("search_nodes", { query: "PERSON" });
await call("search_nodes", { query: "no such thing" });
await call("open_nodes", { names: ["Acme Corp", "Never existed"] });
await call("open_nodes", { names: ["project:forge-memory", "🚀 Launch plan"] });

await client.close();
writeFileSync(join(here, "official-answers.json"), JSON.stringify(answers, null, 2) + "\n");
