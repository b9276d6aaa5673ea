import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEventsText, readEvents } from "../../src/events/reader.js";
import { runBuilder } from "../helpers/events.js";
import { errorOf, everyTypeRun } from "./event-fixtures.js";

describe("parseEventsText", () => {
  it("names the line number of the first invalid line", () => {
    const lines = runBuilder().setup().jsonl().split("\n");
    lines[1] = (lines[1] ?? "").replace('"kind":"INJECTOR_STARTED"', '"kind":"RUN_STARTED"');
    const error = errorOf(() => parseEventsText(lines.join("\n")));
    expect({ code: error.code, line: error.line, keyPath: error.keyPath }).toEqual({
      code: "EVENTS_INVALID",
      line: 2,
      keyPath: "payload.kind",
    });
  });

  it("reports a last line without a final newline as truncated, with its line number", () => {
    const text = runBuilder().setup().jsonl();
    const truncated = `${text}{"schema_version":1,"event_id":"a`;
    const error = errorOf(() => parseEventsText(truncated));
    expect({ code: error.code, line: error.line }).toEqual({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(parseEventsText(truncated, { allowTruncatedTail: true })).toEqual(parseEventsText(text));
  });

  it("treats a complete event without its final newline as truncated too", () => {
    const text = runBuilder().setup().jsonl();
    const error = errorOf(() => parseEventsText(text.slice(0, -1)));
    expect({ code: error.code, line: error.line }).toEqual({ code: "EVENTS_TRUNCATED", line: 3 });
    expect(parseEventsText(text.slice(0, -1), { allowTruncatedTail: true })).toHaveLength(2);
  });

  it("rejects an empty line in the middle", () => {
    const text = runBuilder().setup().jsonl().replace("\n", "\n\n");
    expect(errorOf(() => parseEventsText(text))).toMatchObject({ code: "EVENTS_INVALID", line: 2 });
  });

  it("reads an empty text as no events and leaves duplicate sequences to the analyzer", () => {
    expect(parseEventsText("")).toEqual([]);
    const builder = runBuilder().setup();
    builder.emit({ kind: "RUN_ERROR", reason_code: "INTERNAL_ERROR", message: "x" }, { sequence: 2 });
    expect(parseEventsText(builder.jsonl()).map((e) => e.sequence)).toEqual([1, 2, 3, 2]);
  });
});

describe("readEvents", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentchaos-events-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads back every event a run wrote", async () => {
    const builder = everyTypeRun();
    const path = join(dir, "events.jsonl");
    await writeFile(path, builder.jsonl());
    expect(await readEvents(path)).toEqual(builder.events());
  });

  it("reports a missing file as EVENTS_NOT_FOUND", async () => {
    await expect(readEvents(join(dir, "missing.jsonl"))).rejects.toMatchObject({ code: "EVENTS_NOT_FOUND" });
  });

  it("reports a folder in place of the file as EVENTS_UNREADABLE", async () => {
    await expect(readEvents(dir)).rejects.toMatchObject({ code: "EVENTS_UNREADABLE" });
  });

  it.skipIf(process.getuid?.() === 0)(
    "reports a file without read permission as EVENTS_UNREADABLE",
    async () => {
      const path = join(dir, "events.jsonl");
      await writeFile(path, runBuilder().setup().jsonl());
      await chmod(path, 0o000);
      await expect(readEvents(path)).rejects.toMatchObject({ code: "EVENTS_UNREADABLE" });
    },
  );

  it("reports invalid UTF-8 with its line number", async () => {
    const path = join(dir, "events.jsonl");
    const lines = Buffer.from(runBuilder().setup().jsonl());
    const bad = Buffer.concat([lines, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
    await writeFile(path, bad);
    await expect(readEvents(path)).rejects.toMatchObject({ code: "EVENTS_INVALID", line: 4 });
  });

  it("reports a tail cut inside a UTF-8 character as truncated, not as invalid", async () => {
    const path = join(dir, "events.jsonl");
    const builder = runBuilder().setup();
    const cut = Buffer.from('{"schema_version":1,"run_id":"é').subarray(0, -1);
    await writeFile(path, Buffer.concat([Buffer.from(builder.jsonl()), cut]));
    await expect(readEvents(path)).rejects.toMatchObject({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(await readEvents(path, { allowTruncatedTail: true })).toEqual(builder.events());
  });

  it("drops a truncated tail only when asked to", async () => {
    const path = join(dir, "events.jsonl");
    const builder = runBuilder().setup();
    await writeFile(path, `${builder.jsonl()}{"schema_ver`);
    await expect(readEvents(path)).rejects.toMatchObject({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(await readEvents(path, { allowTruncatedTail: true })).toEqual(builder.events());
  });
});
