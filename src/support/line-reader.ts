/**
 * Reading a regular file line by line (lines end with `\n`) in fixed chunks: memory holds one
 * chunk and at most one line, whatever the file's length, and every byte is copied at most
 * twice (a line that spans chunks is joined once, when its end arrives). A line longer than the
 * caller's limit is refused as soon as it is, naming its number. Between chunks the event loop
 * runs, so a signal is served during a long read.
 */
import { FileReadError, openRegularFile, sizeText } from "./regular-file.js";

const CHUNK_BYTES = 1024 * 1024;

export interface LinesRead {
  /** Complete lines handed to the callback. */
  readonly lines: number;
  /** The bytes after the last `\n` (empty when the file ends with one, or reading stopped). */
  readonly tail: Buffer;
  /** Whether the callback stopped the reading. */
  readonly stopped: boolean;
}

function lineTooLong(line: number, maxLineBytes: number): FileReadError {
  return new FileReadError(
    "FILE_LINE_TOO_LONG",
    `has a line longer than the ${sizeText(maxLineBytes)} limit (line ${line})`,
    { line },
  );
}

/**
 * Hands each complete line of a regular file (without its `\n`) to `onLine`, in order; `onLine`
 * returning false stops the reading. The bytes passed are only valid during the call. Throws
 * `FileReadError` (a line, or the unterminated tail, longer than `maxLineBytes` included) and
 * whatever `onLine` throws.
 */
export async function readLines(
  path: string,
  maxLineBytes: number,
  onLine: (bytes: Buffer, lineNumber: number) => boolean,
): Promise<LinesRead> {
  const handle = await openRegularFile(path);
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    /** The start of the current line, copied out of earlier chunks. */
    let parts: Buffer[] = [];
    let partsLength = 0;
    let lines = 0;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null));
      } catch (error) {
        throw new FileReadError("FILE_UNREADABLE", "cannot be read", { cause: error });
      }
      if (bytesRead === 0) break;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        lines += 1;
        if (partsLength + end - start > maxLineBytes) throw lineTooLong(lines, maxLineBytes);
        let bytes = data.subarray(start, end);
        if (partsLength > 0) {
          bytes = Buffer.concat([...parts, bytes], partsLength + bytes.length);
          parts = [];
          partsLength = 0;
        }
        if (!onLine(bytes, lines)) return { lines, tail: Buffer.alloc(0), stopped: true };
        start = end + 1;
      }
      if (start < bytesRead) {
        partsLength += bytesRead - start;
        if (partsLength > maxLineBytes) throw lineTooLong(lines + 1, maxLineBytes);
        // Copied: `chunk` is reused for the next read.
        parts.push(Buffer.from(data.subarray(start)));
      }
    }
    const tail = parts.length === 0 ? Buffer.alloc(0) : Buffer.concat(parts, partsLength);
    return { lines, tail, stopped: false };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
