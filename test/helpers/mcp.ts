/**
 * Fixtures for MCP tests: a schema-2 payload sink, MCP fault builders, a stdio host started on
 * a real Unix socket and SDK clients that spawn the shim it hands out. Everything is stopped
 * after each test, even when it fails.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { PayloadSink } from "../../src/events/operation.js";
import type { EventPayload } from "../../src/events/types.js";
import { type McpStdioHost, startMcpStdioHost } from "../../src/mcp/stdio/host.js";
import type { Fault, McpStdioDependency, McpTarget, OccurrenceTrigger } from "../../src/scenario/types.js";
import { eventually } from "./eventually.js";
import { onCleanup } from "./proxy-harness.js";
import { tempDir } from "./temp.js";

export const PROGRAMS = new URL("../fixtures/programs/", import.meta.url).pathname;

type Kind = EventPayload["kind"];

/** Collects schema-2 payloads in recorder order. */
export class PayloadLog implements PayloadSink {
  readonly payloads: EventPayload[] = [];

  emit(payload: unknown): void {
    this.payloads.push(payload as EventPayload);
  }

  ofKind<K extends Kind>(kind: K): Extract<EventPayload, { kind: K }>[] {
    return this.payloads.filter(
      (payload): payload is Extract<EventPayload, { kind: K }> => payload.kind === kind,
    );
  }

  /** Event kinds of one operation, in recorder order. */
  kindsOf(operationId: string): Kind[] {
    return this.payloads
      .filter((payload) => "operation_id" in payload && payload.operation_id === operationId)
      .map((payload) => payload.kind);
  }

  /** The terminal payload of an operation. */
  terminal(operationId: string): EventPayload | undefined {
    return this.payloads.find(
      (payload) =>
        (payload.kind === "OPERATION_SUCCEEDED" || payload.kind === "OPERATION_FAILED") &&
        payload.operation_id === operationId,
    );
  }

  /** Operation ids observed for one method and target name, in order. */
  operations(method: string, path?: string): string[] {
    return this.ofKind("OPERATION_OBSERVED")
      .filter((payload) => payload.method === method && (path === undefined || payload.path === path))
      .map((payload) => payload.operation_id);
  }

  text(): string {
    return this.payloads.map((payload) => JSON.stringify(payload)).join("\n");
  }
}

export function occurrences(...list: number[]): OccurrenceTrigger {
  return { kind: "occurrence_schedule", occurrences: list };
}

export function tool(name: string | null, method: string | null = "tools/call"): McpTarget {
  return { kind: "mcp", method, name };
}

const base = (id: string, target: McpTarget, trigger: OccurrenceTrigger) =>
  ({ id, dependency: "tools", target, trigger, expect: "recover" }) as const;

export const mcpFaults = {
  error: (id: string, target: McpTarget, trigger: OccurrenceTrigger, code = -32603): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_error",
    code,
  }),
  toolError: (id: string, target: McpTarget, trigger: OccurrenceTrigger): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_tool_error",
  }),
  latency: (id: string, target: McpTarget, trigger: OccurrenceTrigger, latencyMs: number): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_latency",
    latencyMs,
  }),
  noResponse: (id: string, target: McpTarget, trigger: OccurrenceTrigger): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_no_response",
  }),
  disconnect: (id: string, target: McpTarget, trigger: OccurrenceTrigger): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_disconnect",
  }),
  malformed: (
    id: string,
    target: McpTarget,
    trigger: OccurrenceTrigger,
    shape: "not_json" | "wrong_id" | "missing_result",
  ): Fault => ({ ...base(id, target, trigger), type: "mcp_malformed", shape }),
  oversized: (id: string, target: McpTarget, trigger: OccurrenceTrigger, sizeBytes: number): Fault => ({
    ...base(id, target, trigger),
    type: "mcp_oversized",
    sizeBytes,
  }),
  toolsChanged: (
    id: string,
    target: McpTarget,
    trigger: OccurrenceTrigger,
    remove: string[],
    require: string | null = null,
  ): Fault => ({ ...base(id, target, trigger), type: "mcp_tools_changed", remove, require }),
};

export function stdioDependency(
  program = "mcp-tools-server.mjs",
  env: Record<string, string> = {},
): McpStdioDependency {
  return { name: "tools", type: "mcp_stdio", command: [process.execPath, program], cwd: PROGRAMS, env };
}

export interface TestHost {
  readonly host: McpStdioHost;
  readonly log: PayloadLog;
  readonly command: string;
  readonly args: string[];
  readonly interrupt: AbortController;
}

/** A stdio host for dependency `tools`, closed after the test. */
export async function startTestHost(
  faults: readonly Fault[] = [],
  dependency: McpStdioDependency = stdioDependency(),
): Promise<TestHost> {
  const log = new PayloadLog();
  const interrupt = new AbortController();
  const host = await startMcpStdioHost({
    dependency,
    faults,
    sink: log,
    runDir: PROGRAMS,
    runId: "20260101T000000Z-00000000",
    interrupt: interrupt.signal,
  });
  onCleanup(() => host.close());
  const command = host.env.AGENTCHAOS_TOOLS_COMMAND as string;
  const args = JSON.parse(host.env.AGENTCHAOS_TOOLS_ARGS as string) as string[];
  return { host, log, command, args, interrupt };
}

/** One `tools/call` request line as an agent writes it to the shim. */
export function toolCallLine(id: string, name: string, args = "{}"): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}\n`;
}

/**
 * A stdio host in front of `mcp-scripted-server.mjs`, with `received()`: the lines the server
 * has read so far, from its log.
 */
export async function startScriptedHost(
  faults: readonly Fault[],
): Promise<TestHost & { received(): string[] }> {
  const folder = await tempDir();
  onCleanup(folder.remove);
  const log = join(folder.path, "server.log");
  const test = await startTestHost(faults, stdioDependency("mcp-scripted-server.mjs", { MCP_TEST_LOG: log }));
  const received = (): string[] => {
    try {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "");
    } catch {
      return [];
    }
  };
  return { ...test, received };
}

/** An SDK client connected through the shim (a new session), closed after the test. */
export async function connectClient(
  test: TestHost,
): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: test.command, args: test.args, stderr: "pipe" });
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  onCleanup(() => client.close().catch(() => {}));
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result's first content item. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content;
  return content?.[0]?.text ?? "";
}

export interface RawShim {
  readonly child: import("node:child_process").ChildProcess;
  /** Bytes the shim wrote to its stdout so far. */
  output(): string;
  /** Lines written to stderr. */
  errors(): string;
  write(text: string): void;
  /** Resolves once stdout holds `count` complete lines (fails after the deadline). */
  lines(count: number): Promise<string[]>;
  readonly exited: Promise<number | null>;
}

/** The shim spawned as a bare process (the test is the agent, writing raw lines). */
export function spawnRawShim(test: Pick<TestHost, "command" | "args">, args: string[] = test.args): RawShim {
  const child = spawn(test.command, args, { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  // Counted as the bytes arrive: splitting a 64 MiB output at every poll costs more than the test.
  let newlines = 0;
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines++;
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdin?.on("error", () => {});
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  });
  return {
    child,
    output: () => stdout,
    errors: () => stderr,
    write: (text) => {
      child.stdin?.write(text);
    },
    async lines(count) {
      await eventually(() => newlines >= count, {
        what: `${count} lines on the shim's stdout`,
      }).catch((error: Error) => {
        const got = stdout.length > 4096 ? `${stdout.slice(0, 4096)}… (${stdout.length} chars)` : stdout;
        throw new Error(`${error.message}; got: ${JSON.stringify(got)}`, { cause: error });
      });
      return stdout.split("\n").slice(0, count);
    },
    exited,
  };
}
