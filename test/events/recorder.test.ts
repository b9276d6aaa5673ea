import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readEvents } from "../../src/events/reader.js";
import { Recorder } from "../../src/events/recorder.js";
import { tempDir } from "../helpers/temp.js";

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

describe("Recorder", () => {
  it("writes each event as one line, exactly the JSON of the returned event, before emit returns", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, 'run-"quoted"-\u00e9');
    const first = recorder.emit({ kind: "RUN_STARTED", scenario_name: 'a "name" with \\ and \u2028' });
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

  it("numbers events 1, 2, 3 without gaps and writes lines the strict reader accepts", async () => {
    const path = join(dir.path, "events.jsonl");
    const recorder = new Recorder(path, "20261129T183821Z-1a2b3c4d");
    for (let i = 0; i < 50; i++)
      recorder.emit({ kind: "DEPENDENCY_STOPPED", exit_code: i % 2 === 0 ? null : -15 });
    recorder.close();
    const events = await readEvents(path);
    expect(events.map((event) => event.sequence)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(events.map((event) => event.event_id)).size).toBe(50);
    expect(events.every((event) => event.component === "dependency")).toBe(true);
    expect(() => recorder.emit({ kind: "RUN_STARTED", scenario_name: "x" })).toThrow();
  });
});
