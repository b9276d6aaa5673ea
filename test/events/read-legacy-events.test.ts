import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLegacyEventsText, readLegacyEvents } from "../../src/events/reader.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { errorOf, everyTypeRun } from "./event-fixtures.js";

describe("parseEventsText", () => {
  it("names the line number of the first invalid line", () => {
    const lines = legacyRunBuilder().setup().jsonl().split("\n");
    lines[1] = (lines[1] ?? "").replace('"kind":"INJECTOR_STARTED"', '"kind":"RUN_STARTED"');
    const error = errorOf(() => parseLegacyEventsText(lines.join("\n")));
    expect({ code: error.code, line: error.line, keyPath: error.keyPath }).toEqual({
      code: "EVENTS_INVALID",
      line: 2,
      keyPath: "payload.kind",
    });
  });

  it("reports a last line without a final newline as truncated, with its line number", () => {
    const text = legacyRunBuilder().setup().jsonl();
    const truncated = `${text}{"schema_version":1,"event_id":"a`;
    const error = errorOf(() => parseLegacyEventsText(truncated));
    expect({ code: error.code, line: error.line }).toEqual({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(parseLegacyEventsText(truncated, { allowTruncatedTail: true })).toEqual(
      parseLegacyEventsText(text),
    );
  });

  it("treats a complete event without its final newline as truncated too", () => {
    const text = legacyRunBuilder().setup().jsonl();
    const error = errorOf(() => parseLegacyEventsText(text.slice(0, -1)));
    expect({ code: error.code, line: error.line }).toEqual({ code: "EVENTS_TRUNCATED", line: 3 });
    expect(parseLegacyEventsText(text.slice(0, -1), { allowTruncatedTail: true })).toHaveLength(2);
  });

  it("rejects an empty line in the middle", () => {
    const text = legacyRunBuilder().setup().jsonl().replace("\n", "\n\n");
    expect(errorOf(() => parseLegacyEventsText(text))).toMatchObject({ code: "EVENTS_INVALID", line: 2 });
  });

  it("reads an empty text as no events and leaves duplicate sequences to the analyzer", () => {
    expect(parseLegacyEventsText("")).toEqual([]);
    const builder = legacyRunBuilder().setup();
    builder.emit({ kind: "RUN_ERROR", reason_code: "INTERNAL_ERROR", message: "x" }, { sequence: 2 });
    expect(parseLegacyEventsText(builder.jsonl()).map((e) => e.sequence)).toEqual([1, 2, 3, 2]);
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
    expect(await readLegacyEvents(path)).toEqual(builder.events());
  });

  it("reports a missing file as EVENTS_NOT_FOUND", async () => {
    await expect(readLegacyEvents(join(dir, "missing.jsonl"))).rejects.toMatchObject({
      code: "EVENTS_NOT_FOUND",
    });
  });

  it("reports a folder in place of the file as EVENTS_UNREADABLE", async () => {
    await expect(readLegacyEvents(dir)).rejects.toMatchObject({ code: "EVENTS_UNREADABLE" });
  });

  it.skipIf(process.getuid?.() === 0)(
    "reports a file without read permission as EVENTS_UNREADABLE",
    async () => {
      const path = join(dir, "events.jsonl");
      await writeFile(path, legacyRunBuilder().setup().jsonl());
      await chmod(path, 0o000);
      await expect(readLegacyEvents(path)).rejects.toMatchObject({ code: "EVENTS_UNREADABLE" });
    },
  );

  it("reports invalid UTF-8 with its line number", async () => {
    const path = join(dir, "events.jsonl");
    const lines = Buffer.from(legacyRunBuilder().setup().jsonl());
    const bad = Buffer.concat([lines, Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
    await writeFile(path, bad);
    await expect(readLegacyEvents(path)).rejects.toMatchObject({ code: "EVENTS_INVALID", line: 4 });
  });

  it("reports a tail cut inside a UTF-8 character as truncated, not as invalid", async () => {
    const path = join(dir, "events.jsonl");
    const builder = legacyRunBuilder().setup();
    const cut = Buffer.from('{"schema_version":1,"run_id":"é').subarray(0, -1);
    await writeFile(path, Buffer.concat([Buffer.from(builder.jsonl()), cut]));
    await expect(readLegacyEvents(path)).rejects.toMatchObject({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(await readLegacyEvents(path, { allowTruncatedTail: true })).toEqual(builder.events());
  });

  it("drops a truncated tail only when asked to", async () => {
    const path = join(dir, "events.jsonl");
    const builder = legacyRunBuilder().setup();
    await writeFile(path, `${builder.jsonl()}{"schema_ver`);
    await expect(readLegacyEvents(path)).rejects.toMatchObject({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(await readLegacyEvents(path, { allowTruncatedTail: true })).toEqual(builder.events());
  });
});
