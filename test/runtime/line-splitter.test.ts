import { stat } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManagedProcess } from "../../src/runtime/child-process.js";
import { LineSplitter, MAX_ECHO_LINE } from "../../src/runtime/line-splitter.js";
import { tempDir } from "../helpers/temp.js";

function split(chunks: readonly (string | Buffer)[], width?: number): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), width);
  for (const chunk of chunks) splitter.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  splitter.end();
  return lines;
}

describe("echoed output lines", () => {
  it("are cut at newlines, with a CR before the newline dropped, across chunks", () => {
    expect(split(["a\r\nb", "c\n", "\n", "last"])).toEqual(["a", "bc", "", "last"]);
  });

  it("longer than the width come in pieces of the width, whatever the chunking", () => {
    expect(split(["abcdefghij\n"], 4)).toEqual(["abcd", "efgh", "ij"]);
    expect(split(["ab", "cdef", "ghij", "\nk"], 4)).toEqual(["abcd", "efgh", "ij", "k"]);
    expect(split(["abcd\nefgh\n"], 4)).toEqual(["abcd", "efgh"]);
  });

  it("are the same however the output is chunked, a CRLF or a character split between chunks included", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "é", "€", "😀", "\r", "\n") }),
        fc.array(fc.nat()),
        fc.integer({ min: 1, max: 6 }),
        (text, offsets, width) => {
          const bytes = Buffer.from(text);
          const points = offsets.map((offset) => offset % (bytes.length + 1)).sort((a, b) => a - b);
          const chunks = [...points, bytes.length].map((end, i) =>
            bytes.subarray(i === 0 ? 0 : points[i - 1], end),
          );
          expect(split(chunks, width)).toEqual(split([bytes], width));
        },
      ),
    );
  });

  it("keep multi-byte characters whole when a chunk splits them", () => {
    const bytes = Buffer.from("é€😀\n");
    expect(
      split([bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4, 7), bytes.subarray(7)]),
    ).toEqual(["é€😀"]);
    expect(split(["a😀b\n"], 2)).toEqual(["a", "😀", "b"]);
  });
});

describe("a workload that writes without newlines", () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it("is echoed in pieces of at most 4096 characters and logged whole", async () => {
    const size = 8 * 1024 * 1024;
    const pieces: number[] = [];
    const child = await ManagedProcess.start({
      spec: {
        command: [process.execPath, "-e", `process.stdout.write("x".repeat(${size}))`],
        cwd: dir.path,
        env: {},
      },
      stdoutPath: join(dir.path, "out.log"),
      stderrPath: join(dir.path, "err.log"),
      onLine: (_, line) => pieces.push(line.length),
    });
    await child.reap();
    expect((await stat(join(dir.path, "out.log"))).size).toBe(size);
    expect(Math.max(...pieces)).toBe(MAX_ECHO_LINE);
    expect(pieces.reduce((sum, length) => sum + length, 0)).toBe(size);
    expect(pieces.length).toBe(size / MAX_ECHO_LINE);
  });
});
