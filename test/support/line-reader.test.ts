import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLines } from "../../src/support/line-reader.js";
import { FileReadError } from "../../src/support/regular-file.js";
import { testFolder } from "../helpers/cli.js";

const dir = testFolder("each");

async function linesOf(text: string | Buffer, maxLineBytes = 1024 * 1024) {
  const path = join(dir.path, "lines.txt");
  await writeFile(path, text);
  const lines: string[] = [];
  const read = await readLines(path, maxLineBytes, (bytes, number) => {
    expect(number).toBe(lines.length + 1);
    lines.push(bytes.toString("latin1"));
    return true;
  });
  return { lines, tail: read.tail.toString("latin1"), count: read.lines, stopped: read.stopped };
}

async function refusal(text: string | Buffer, maxLineBytes: number): Promise<FileReadError> {
  try {
    await linesOf(text, maxLineBytes);
  } catch (error) {
    if (error instanceof FileReadError) return error;
    throw error;
  }
  throw new Error("the read was not refused");
}

describe("the line reader", () => {
  it("hands over every line without its newline, and the unterminated tail apart", async () => {
    expect(await linesOf("a\n\nbc\nd")).toEqual({
      lines: ["a", "", "bc"],
      tail: "d",
      count: 3,
      stopped: false,
    });
    expect(await linesOf("")).toEqual({ lines: [], tail: "", count: 0, stopped: false });
  });

  it("joins lines that span read chunks, byte for byte", async () => {
    // Lines of 0.7, 2.5 and 1.3 MiB: each crosses at least one 1 MiB chunk boundary.
    const sizes = [700 * 1024, 2560 * 1024, 1331 * 1024];
    const lines = sizes.map((size, index) => String.fromCharCode(97 + index).repeat(size));
    const read = await linesOf(`${lines.join("\n")}\n`, 4 * 1024 * 1024);
    expect(read.lines.map((line) => line.length)).toEqual(sizes);
    expect(read.lines).toEqual(lines);
    expect(read.tail).toBe("");
  });

  it("stops when the callback says so", async () => {
    const path = join(dir.path, "lines.txt");
    await writeFile(path, "a\nb\nc\n");
    const seen: string[] = [];
    const read = await readLines(path, 10, (bytes) => {
      seen.push(bytes.toString());
      return seen.length < 2;
    });
    expect({ seen, lines: read.lines, stopped: read.stopped }).toEqual({
      seen: ["a", "b"],
      lines: 2,
      stopped: true,
    });
  });

  it("refuses a line over the limit, naming its number, also across chunks and in the tail", async () => {
    const short = await refusal("ok\nok\n0123456789A\nok\n", 10);
    expect({ code: short.code, line: short.line }).toEqual({ code: "FILE_LINE_TOO_LONG", line: 3 });
    expect(short.reason).toBe("has a line longer than the 10 bytes limit (line 3)");
    const spanning = await refusal(`ok\n${"x".repeat(3 * 1024 * 1024)}\n`, 2 * 1024 * 1024);
    expect({ line: spanning.line, reason: spanning.reason }).toEqual({
      line: 2,
      reason: "has a line longer than the 2 MiB limit (line 2)",
    });
    expect((await refusal("ok\n0123456789A", 10)).line).toBe(2);
    expect((await linesOf("0123456789\n", 10)).lines).toEqual(["0123456789"]);
  });

  it.runIf(process.platform === "linux")("refuses a FIFO instead of waiting for a writer", async () => {
    const path = join(dir.path, "pipe");
    execFileSync("mkfifo", [path]);
    await expect(readLines(path, 10, () => true)).rejects.toMatchObject({
      code: "FILE_NOT_REGULAR",
      kind: "FIFO",
    });
  });
});
