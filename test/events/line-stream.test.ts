import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { streamEventLines } from "../../src/events/line-stream.js";
import { tempDir } from "../helpers/temp.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("streaming an events file line by line", () => {
  it("reads a line spanning several read chunks whole, joining its pieces once", async () => {
    const dir = await tempDir();
    cleanups.push(dir.remove);
    const long = "x".repeat(5 * 1024 * 1024 + 17);
    const path = join(dir.path, "events.jsonl");
    await writeFile(path, `first\n${long}\nlast\n`);
    const concat = vi.spyOn(Buffer, "concat");
    const lines: [string, number][] = [];
    const result = await streamEventLines(
      path,
      (line, lineNumber) => [line, lineNumber] as [string, number],
      (line) => lines.push(line) > 0,
    );
    expect(result).toBe("read");
    expect(lines.map(([line, number]) => [line.length, number])).toEqual([
      [5, 1],
      [long.length, 2],
      [4, 3],
    ]);
    expect(lines[1]?.[0] === long).toBe(true);
    expect(concat).toHaveBeenCalledTimes(1);
  });
});
