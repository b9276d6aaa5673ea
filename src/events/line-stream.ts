import { isUtf8 } from "node:buffer";
import { open } from "node:fs/promises";
import { decodeLine, fileError, type ReadEventsOptions, truncatedTail } from "./reader.js";

/** Bytes read at a time: the whole file is never in memory. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads an events file line by line, strictly (the rules and errors of `readEvents`), handing
 * each parsed event to `take` as soon as its line is read. `take` returning false stops the
 * reading early; the result says whether every line was read.
 */
export async function streamEventLines<E>(
  path: string,
  parseLine: (line: string, lineNumber: number) => E,
  take: (event: E) => boolean,
  options: ReadEventsOptions = {},
): Promise<"read" | "stopped"> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, "r");
  } catch (cause) {
    throw fileError(cause);
  }
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    // The unfinished line, in copied pieces (`chunk` is reused), joined once when it ends.
    let carry: Buffer[] = [];
    let carried = 0;
    let lineNumber = 0;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null));
      } catch (cause) {
        throw fileError(cause);
      }
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        lineNumber += 1;
        const bytes =
          carry.length === 0
            ? data.subarray(start, end)
            : Buffer.concat([...carry, data.subarray(0, end)], carried + end);
        carry = [];
        carried = 0;
        const text = isUtf8(bytes) ? bytes.toString("utf8") : decodeLine(bytes, lineNumber);
        if (!take(parseLine(text, lineNumber))) return "stopped";
        start = end + 1;
      }
      if (start < bytesRead) {
        carry.push(Buffer.from(data.subarray(start)));
        carried += bytesRead - start;
      }
    }
    if (carried > 0 && options.allowTruncatedTail !== true) throw truncatedTail(lineNumber + 1);
    return "read";
  } finally {
    await file.close();
  }
}
