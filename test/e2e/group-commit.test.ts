// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scenarios hold ${...} references
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEvents } from "../../src/events/reader.js";
import { BIN, onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");
const servers: Server[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** An upstream answering JSON on any path and a three-event SSE stream on /sse. */
async function startUpstream(): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === "/sse") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (let i = 1; i <= 3; i++) response.write(`data: {"n":${i}}\n\n`);
      response.end();
      return;
    }
    if (request.url === "/upstream-500") response.writeHead(500, { "content-type": "application/json" });
    else response.writeHead(200, { "content-type": "application/json" });
    response.end('{"ok":true}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const EVERY = `[${Array.from({ length: 40 }, (_, i) => i + 1).join(", ")}]`;

function fault(id: string, type: string, path: string, extra: string): string {
  return `  - {id: ${id}, type: ${type}, target: {path: ${path}}, trigger: {occurrences: ${EVERY}}, expect: give_up${extra}}\n`;
}

async function scenario(name: string, upstream: string, program: string, env: string): Promise<string> {
  return writeScenario(
    dir.path,
    name,
    `schema_version: 2
name: ${name}
dependencies:
  api: {type: http, base_url: "${upstream}"}
workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, program)])}
  env: {${env}}
faults:
${fault("error", "http_error", "/error", ", status_code: 503")}${fault("limit", "http_rate_limit", "/limit", ", retry_after_seconds: 1")}${fault("malformed", "http_malformed_json", "/malformed", "")}${fault("drop", "http_disconnect", "/drop", "")}${fault("slow", "http_latency", "/slow", ", latency_ms: 5")}success:
  exit_code: 0
timeout_seconds: 60
`,
  );
}

describe("group commit", () => {
  it("every response the workload saw complete already has its terminal event on disk, whatever answered it", async () => {
    const upstream = await startUpstream();
    const out = join(dir.path, "runs");
    const paths = ["/ok", "/error", "/limit", "/malformed", "/drop", "/slow", "/sse", "/upstream-500"];
    const file = await scenario(
      "durable-responses",
      upstream,
      "durable-responses.mjs",
      `EVENTS_FILE: "${join(out, "${AGENTCHAOS_RUN_ID}", "events.jsonl")}", PATHS: "${paths.join(",")}", REQUESTS: "160"`,
    );
    await runBuiltCli(["run", file, "--output-dir", out]);
    const runDir = onlyRunDir(out);
    const seen = JSON.parse(await readFile(join(runDir, "stdout.log"), "utf8")) as {
      missing: number | null;
      outcomes: Record<string, number>;
    };
    expect(seen.missing).toBeNull();
    expect(seen.outcomes).toEqual({
      "/ok 200": 20,
      "/error 503": 20,
      "/limit 429": 20,
      "/malformed 200": 20,
      "/drop error": 20,
      "/slow 200": 20,
      "/sse 200": 20,
      "/upstream-500 500": 20,
    });
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    expect(report.workload.exit_code).toBe(0);
  });

  it("a run killed in the middle of traffic leaves a log that is a valid, gap-free prefix", async () => {
    const upstream = await startUpstream();
    const out = join(dir.path, "runs");
    const file = await scenario("killed", upstream, "load-until-gone.mjs", `CONCURRENCY: "8"`);
    const child = spawn(process.execPath, [BIN, "run", file, "--output-dir", out], { stdio: "ignore" });
    children.push(child);
    const exited = once(child, "exit");
    const events = () => join(onlyRunDir(out), "events.jsonl");
    await eventually(
      () => {
        try {
          return onlyRunDir(out) !== "" && statSizeSync(events()) > 200_000;
        } catch {
          return false;
        }
      },
      { timeoutMs: 20_000, what: "the event log grew past 200 kB" },
    );
    child.kill("SIGKILL");
    await exited;

    const recorded = await readEvents(events(), { allowTruncatedTail: true });
    expect(recorded.length).toBeGreaterThan(300);
    expect(recorded.map((event) => event.sequence)).toEqual(recorded.map((_, index) => index + 1));
    expect(recorded.some((event) => event.type === "RUN_COMPLETED")).toBe(false);
    expect((await stat(events())).size).toBeGreaterThan(200_000);
  });
});

function statSizeSync(path: string): number {
  return statSync(path).size;
}
