import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { constants } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { connectClient, spawnRawShim, startTestHost, stdioDependency, textOf } from "../helpers/mcp.js";
import { onCleanup } from "../helpers/proxy-harness.js";
import { tempDir } from "../helpers/temp.js";

/**
 * A script preloaded into the shim (`node -r`): when the shim exits it writes which script files
 * it loaded and whether Node's crypto module was loaded, to `report`.
 */
function loadReportScript(report: string): string {
  return `process.on("exit", () => {
  require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify({
    files: Object.keys(require.cache),
    crypto: process.moduleLoadList.includes("NativeModule crypto"),
    builtins: process.moduleLoadList.filter((name) => name.startsWith("NativeModule ")).map((name) => name.slice(13)),
  }));
});
`;
}

interface LoadReport {
  readonly files: string[];
  readonly crypto: boolean;
  /** Node.js's own modules loaded, by name ("os", "internal/...", ...). */
  readonly builtins: string[];
}

/** The preload, and the report it writes once the shim has exited. */
async function loadReporter(): Promise<{ preload: string; read: () => Promise<LoadReport> }> {
  const dir = await tempDir();
  onCleanup(dir.remove);
  const preload = join(dir.path, "load-report.cjs");
  const report = join(dir.path, "load-report.json");
  await writeFile(preload, loadReportScript(report));
  return {
    preload,
    read: async () => {
      await eventually(() => existsSync(report), { what: "the shim's load report" });
      return JSON.parse(await readFile(report, "utf8")) as LoadReport;
    },
  };
}

describe("the shim's own executable", () => {
  it("is what a run hands its workload: this Node.js running the built one-file shim's mcp-shim command", async () => {
    const test = await startTestHost();
    expect(test.command).toBe(process.execPath);
    expect(basename(test.args[0] as string)).toBe("mcp-shim.cjs");
    expect(test.args.slice(1, 4)).toEqual(["mcp-shim", "--dependency", "tools"]);
  });

  it("loads no other script, and no crypto before a message needs a hash", async () => {
    // A server that starts quickly and leaves at the end of its input: the SDK server's start can
    // outlast the shim's grace period on a loaded machine, and what is tested here is the shim.
    const test = await startTestHost([], {
      ...stdioDependency(),
      command: [process.execPath, "-e", "process.stdin.resume()"],
    });
    const reporter = await loadReporter();
    const shim = spawnRawShim(test, ["-r", reporter.preload, ...test.args]);
    await eventually(() => test.log.payloads.some((payload) => payload.kind === "SESSION_STARTED"), {
      what: "SESSION_STARTED",
    });
    shim.child.stdin?.end();
    expect(await shim.exited).toBe(0);
    const loaded = await reporter.read();
    expect(loaded.files).toEqual([reporter.preload, test.args[0]]);
    expect(loaded.crypto).toBe(false);
    // Nor `node:os` (read only when a signal ends the server) or `node:module`.
    expect(loaded.builtins).toContain("child_process");
    expect(loaded.builtins).not.toContain("os");
    expect(loaded.builtins).not.toContain("module");
  });

  it("loads node:os when a signal ends its server, and reports minus the signal's number", async () => {
    const dependency = stdioDependency();
    const test = await startTestHost([], {
      ...dependency,
      command: [process.execPath, "-e", 'process.kill(process.pid, "SIGTERM")'],
    });
    const reporter = await loadReporter();
    const shim = spawnRawShim(test, ["-r", reporter.preload, ...test.args]);
    await eventually(() => test.log.ofKind("SESSION_ENDED").length === 1, { what: "SESSION_ENDED" });
    expect(test.log.ofKind("SESSION_ENDED")[0]).toMatchObject({ exit_code: -constants.signals.SIGTERM });
    expect(await shim.exited).toBe(1);
    expect((await reporter.read()).builtins).toContain("os");
  });

  it("loads crypto for the first request, whose params hash is recorded", async () => {
    const test = await startTestHost();
    const reporter = await loadReporter();
    const { client } = await connectClient({ ...test, args: ["-r", reporter.preload, ...test.args] });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hashed" } }))).toBe("hashed");
    await client.close();
    expect((await reporter.read()).crypto).toBe(true);
    const call = test.log.ofKind("OPERATION_OBSERVED").find((event) => event.path === "echo");
    // The canonical JSON of the params (keys sorted), hashed in the shim's one-file build.
    const canonical = JSON.stringify({ arguments: { text: "hashed" }, name: "echo" });
    expect(call?.body_hash).toBe(createHash("sha256").update(canonical).digest("hex"));
  });

  it("runs only the mcp-shim command: anything else exits 2 with one line", async () => {
    const test = await startTestHost();
    const child = spawn(process.execPath, [test.args[0] as string, "version"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("agentchaos mcp-shim: this script runs only the `mcp-shim` command\n");
  });
});
