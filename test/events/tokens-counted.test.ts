import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEventLine, parseEventLine3 } from "../../src/events/reader.js";
import { Recorder } from "../../src/events/recorder.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentchaos-tokens-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("TOKENS_COUNTED", () => {
  it("is an events-schema-3 proxy event that schema 2 refuses", async () => {
    const path = join(dir, "events.jsonl");
    const recorder = new Recorder(path, "run-t", 3);
    recorder.emit({ kind: "TOKENS_COUNTED", fault_id: "quota", operation_id: "op-1", tokens: 13 });
    recorder.close();
    const line = (await readFile(path, "utf8")).trim();
    const event = parseEventLine3(line, 1);
    expect(event).toMatchObject({ type: "TOKENS_COUNTED", component: "proxy" });
    expect(event.payload).toEqual({
      kind: "TOKENS_COUNTED",
      fault_id: "quota",
      operation_id: "op-1",
      tokens: 13,
    });
    expect(() => parseEventLine(line.replace('"schema_version":3', '"schema_version":2'), 1)).toThrow(/type/);
    expect(() => parseEventLine3(line.replace('"tokens":13', '"tokens":-1'), 1)).toThrow(/tokens/);
  });
});
