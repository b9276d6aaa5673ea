import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readLegacyEvents } from "../../src/events/reader.js";
import { Recorder } from "../../src/events/recorder.js";
import { ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

describe("Recorder", () => {
  it("writes each event as one line, exactly the JSON of the returned event, once flushed", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, 'run-"quoted"-\u00e9');
    const first = recorder.emit({ kind: "RUN_STARTED", scenario_name: 'a "name" with \\ and \u2028' });
    recorder.flush();
    expect(await readFile(path, "utf8")).toBe(`${JSON.stringify(first)}\n`);
    const second = recorder.emit({
      kind: "FAULT_INJECTED",
      operation_id: "5d1f7a2e-8a86-4c1b-9d7f-0d6b7f1d2c3e",
      fault_type: "http_error",
      parameters: { status_code: 503 },
    });
    recorder.close();
    expect(await readFile(path, "utf8")).toBe(`${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);
    expect(Object.keys(second)).toEqual([
      "schema_version",
      "event_id",
      "run_id",
      "sequence",
      "timestamp",
      "elapsed_ms",
      "type",
      "component",
      "payload",
    ]);
  });

  it("writes a schema-1 run's internal events in the schema-1 form, and not those schema 1 does not have", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, "run", 1);
    const shown: string[] = [];
    recorder.onEvent((event) => shown.push(event.type));
    recorder.emit({
      kind: "INJECTOR_STARTED",
      dependency: "api",
      proxy_url: "http://p",
      upstream_url: "http://u",
    });
    recorder.emit({
      kind: "FAULT_NOT_APPLIED",
      operation_id: "op",
      fault_id: "fault",
      reason: "another_fault_acted",
    });
    recorder.emit({ kind: "DEPENDENCY_STOPPED", dependency: "api", exit_code: 0 });
    recorder.close();
    const lines = (await readFile(path, "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.sequence, line.payload])).toEqual([
      [1, { kind: "INJECTOR_STARTED", proxy_url: "http://p", upstream_url: "http://u" }],
      [2, { kind: "DEPENDENCY_STOPPED", exit_code: 0 }],
    ]);
    expect(shown).toEqual(["INJECTOR_STARTED", "DEPENDENCY_STOPPED"]);
  });

  it("numbers events 1, 2, 3 without gaps and writes lines the strict reader accepts", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, "20261129T183821Z-1a2b3c4d");
    for (let i = 0; i < 50; i++)
      recorder.emit({ kind: "DEPENDENCY_STOPPED", exit_code: i % 2 === 0 ? null : -15 });
    recorder.close();
    const events = await readLegacyEvents(path);
    expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(events.map((event) => event.event_id)).size).toBe(50);
    expect(events.every((event) => event.component === "dependency")).toBe(true);
    expect(() => recorder.emit({ kind: "RUN_STARTED", scenario_name: "x" })).toThrow();
  });

  it("writes the events of one turn together at the end of that turn, not before", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, "run");
    for (let i = 0; i < 3; i++) recorder.emit({ kind: "DEPENDENCY_STOPPED", exit_code: i });
    expect(readFileSync(path, "utf8")).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => (line === "" ? null : JSON.parse(line).sequence))).toEqual([1, 2, 3, null]);
    recorder.close();
  });

  it("keeps sequence order when a line longer than a whole batch comes between short ones", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, "run");
    const long = "\u00e9x".repeat(200_000);
    recorder.emit({ kind: "RUN_STARTED", scenario_name: "short" });
    recorder.emit({ kind: "RUN_STARTED", scenario_name: long });
    recorder.emit({ kind: "RUN_STARTED", scenario_name: "short again" });
    for (let i = 0; i < 3000; i++) recorder.emit({ kind: "DEPENDENCY_STOPPED", exit_code: i });
    recorder.close();
    const events = await readLegacyEvents(path);
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    expect(
      events.slice(0, 3).map((event) => (event.payload as { scenario_name: string }).scenario_name),
    ).toEqual(["short", long, "short again"]);
    expect(events).toHaveLength(3003);
  });

  it("writes the events still waiting for their turn's end when the process exits", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorderModule = join(ROOT, "dist", "events", "recorder.js");
    const script = `import { Recorder } from ${JSON.stringify(recorderModule)};
      const recorder = new Recorder(${JSON.stringify(path)}, "run");
      recorder.emit({ kind: "RUN_STARTED", scenario_name: "exit" });
      recorder.emit({ kind: "DEPENDENCY_STOPPED", exit_code: 3 });
      process.exit(3);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
    const [code] = await once(child, "exit");
    expect(code).toBe(3);
    expect((await readLegacyEvents(path)).map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STOPPED",
    ]);
  });

  it("a failed write at the end of a turn reports once, never throws, and nothing is written after it", async () => {
    const recorder = new Recorder("/dev/full", "run");
    const reported: string[] = [];
    recorder.onWriteError((code) => reported.push(code));
    recorder.emit({ kind: "RUN_STARTED", scenario_name: "x" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(["ENOSPC"]);
    expect(() => recorder.emit({ kind: "RUN_STARTED", scenario_name: "y" })).not.toThrow();
    expect(() => recorder.flush()).not.toThrow();
    expect(recorder.lastSequence).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(["ENOSPC"]);
    recorder.close();
  });
});
