// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scenarios hold ${...} references
/**
 * "Use it in your project" and the client pages, taken as written: the agents, the fake model's
 * script and the scenario are cut out of the code blocks of the README's section and of
 * docs/clients.md, and run through the built CLI, each client under a 503 it must retry. Only
 * `npx agentchaos` is replaced by this checkout's built CLI (the pack-and-install test covers `npx`).
 */

import { readFileSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { yamlList } from "../helpers/scenario-files.js";

/** The text of a second-level section of a Markdown file, up to the next one. */
function section(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, file), "utf8");
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`${file} has no section "${heading}"`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

const SECTIONS = [
  section("README.md", "Use it in your project"),
  section("docs/clients.md", "The same agent with each client"),
];

/** The code block of those sections whose first line is `<comment> <file>` (`// agent.mjs`). */
function block(file: string): string {
  const pattern = /```(?:js|yaml)\n((?:\/\/|#) (\S+)[^\n]*\n[\s\S]*?)```/g;
  for (const text of SECTIONS)
    for (const match of text.matchAll(pattern))
      if (match[2]?.replace(/:$/, "") === file) return match[1] ?? "";
  throw new Error(`no documented block starts with ${file}`);
}

const out = testFolder("all");

let projects = 0;

/** A project folder of its own holding `files`, resolving packages from this checkout. */
async function project(files: Record<string, string>): Promise<string> {
  projects += 1;
  const folder = join(out.path, `project-${projects}`, "my-agent");
  await mkdir(folder, { recursive: true });
  await symlink(join(ROOT, "node_modules"), join(folder, "node_modules"), "dir");
  await writeFile(
    join(folder, "package.json"),
    '{ "name": "my-agent", "private": true, "type": "module" }\n',
  );
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  return folder;
}

async function run(
  folder: string,
  scenario = "scenario.yaml",
): Promise<{ code: number | null; stdout: string; report: Record<string, unknown> }> {
  const result = await runBuiltCli(["run", scenario, "--output-dir", "runs"], { cwd: folder });
  expect(result.stderr).toBe("");
  const report = JSON.parse(await readFile(join(onlyRunDir(join(folder, "runs")), "report.json"), "utf8"));
  return { code: result.code, stdout: result.stdout, report };
}

/** A scenario with the fake model as `llm` and a 503 on the first request to `path`. */
function llmScenario(agent: string, path: string, env = ""): string {
  return `schema_version: 2
name: readme-client
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, BIN, "fake-llm", "--port", "{port}"])}
      readiness: {path: /health}
workload:
  name: my-agent
  command: [node, ${agent}]
${env}faults:
  - type: http_error
    target: {method: POST, path: ${path}}
    trigger: {occurrence: 1}
    status_code: 503
success:
  exit_code: 0
timeout_seconds: 60
`;
}

const ECHO = "[my-agent OUT] Echo: What is the weather in Paris?\n";

describe("the documented agents, written as the documentation says", () => {
  /**
   * The README's project folder (scenario, fake model script, agent side by side), made once: a
   * suite over it and a `run` of the folder, which takes its scenario.yaml.
   */
  let readmeProject: Promise<{ folder: string; ran: Awaited<ReturnType<typeof run>> }> | null = null;
  function readmeRun(): Promise<{ folder: string; ran: Awaited<ReturnType<typeof run>> }> {
    readmeProject ??= (async () => {
      const scenario = block("scenario.yaml").replace("[npx, agentchaos,", `[${process.execPath}, ${BIN},`);
      const folder = await project({
        "agent.mjs": block("agent.mjs"),
        "fake-llm.yaml": block("fake-llm.yaml"),
        "scenario.yaml": scenario,
      });
      return { folder, ran: await run(folder, ".") };
    })();
    return readmeProject;
  }

  it("the openai tool round trip recovers from a 503 on its second completion", async () => {
    const { ran: result } = await readmeRun();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("[my-agent OUT] It is sunny in Paris.\n");
    expect(result.report).toMatchObject({ result: "RECOVERED", faults_injected: 1, retries_observed: 1 });
  });

  it("a suite over the README's project folder (scenario, fake model script, agent side by side) is green", async () => {
    const { folder, ran } = await readmeRun();
    const result = await runBuiltCli(["suite", ".", "--output-dir", "suites", "--reporter", "json"], {
      cwd: folder,
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      "Skipped 1 YAML file with no top-level schema_version key, so not a scenario (fake-llm.yaml)\n",
    );
    expect(result.stdout).toMatch(/^RECOVERED {2}RECOVERY_OBSERVED .* weather-agent-503$/m);
    expect(result.stdout).toContain("1 scenario: 0 passed, 1 recovered, 0 failed");
    expect(result.code).toBe(0);
    // `run` and `validate` of the folder take its scenario.yaml.
    const valid = await runBuiltCli(["validate", "."], { cwd: folder });
    expect(valid).toMatchObject({ code: 0, stdout: "Valid scenario: weather-agent-503\n" });
    expect(ran.stdout).toContain("Result: RECOVERED\n");
    expect(ran.code).toBe(0);
  });

  it.each([
    ["anthropic-agent.mjs", "/v1/messages"],
    ["ai-sdk-agent.mjs", "/v1/responses"],
    ["langchain-agent.mjs", "/v1/chat/completions"],
  ])("%s sends %s and recovers from a 503", { timeout: 30_000 }, async (agent, path) => {
    const folder = await project({ [agent]: block(agent), "scenario.yaml": llmScenario(agent, path) });
    const result = await run(folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(ECHO);
    expect(result.report).toMatchObject({ result: "RECOVERED", reason_code: "RECOVERY_OBSERVED" });
  });

  it("an unchanged agent finds the proxy through OPENAI_BASE_URL and ANTHROPIC_BASE_URL set with ${...}", async () => {
    const agent = `import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
const question = [{ role: "user", content: "What is the weather in Paris?" }];
const chat = await new OpenAI().chat.completions.create({ model: "fake-gpt", messages: question });
console.log(chat.choices[0].message.content);
const message = await new Anthropic().messages.create({ model: "fake-claude", max_tokens: 64, messages: question });
console.log(message.content[0].text);
`;
    const env = `  env:
    OPENAI_BASE_URL: \${AGENTCHAOS_LLM_URL}/v1
    OPENAI_API_KEY: sk-dummy
    ANTHROPIC_BASE_URL: \${AGENTCHAOS_LLM_URL}
    ANTHROPIC_API_KEY: sk-ant-dummy
`;
    const folder = await project({
      "agent.mjs": agent,
      "scenario.yaml": llmScenario("agent.mjs", "/v1/messages", env),
    });
    const result = await run(folder);
    expect(result.code).toBe(0);
    expect(result.stdout.split(ECHO)).toHaveLength(3);
    expect(result.stdout).toMatch(/ {2}llm {12}POST \/v1\/chat\/completions #1$/m);
    expect(result.report).toMatchObject({ result: "RECOVERED", retries_observed: 1 });
  });

  it("the MCP SDK agent calls its tool over Streamable HTTP; a 503 on the optional listening GET is handled", async () => {
    const server = `import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";
const port = Number(process.argv[process.argv.indexOf("--port") + 1]);
createServer(async (req, res) => {
  if (req.url === "/health") return res.end("ok");
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool("add_note", { inputSchema: { text: z.string() } }, async () => ({ content: [{ type: "text", text: "added" }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => { transport.close(); server.close(); });
  await server.connect(transport);
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => transport.handleRequest(req, res, body === "" ? undefined : JSON.parse(body)));
}).listen(port, "127.0.0.1");
`;
    const scenario = `schema_version: 2
name: readme-mcp
dependencies:
  notes:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: [node, server.mjs, --port, "{port}"]
      readiness: {path: /health}
workload:
  name: my-agent
  command: [node, mcp-agent.mjs]
faults:
  - type: http_error
    target: {method: GET, path: /mcp}
    trigger: {occurrence: 1}
    status_code: 503
    expect: handle
success:
  exit_code: 0
timeout_seconds: 60
`;
    const folder = await project({
      "mcp-agent.mjs": block("mcp-agent.mjs"),
      "server.mjs": server,
      "scenario.yaml": scenario,
    });
    const result = await run(folder);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("[my-agent OUT] note added\n");
    expect(result.report).toMatchObject({ result: "PASSED", reason_code: "FAILURE_HANDLED" });
  });
});
