/**
 * The one way Agent Chaos opens a file to read it. Only a regular file is read: the file is
 * opened without blocking (a FIFO with no writer would otherwise block `open()` forever, and no
 * signal could stop the process while it waits), then checked through its own descriptor, so
 * what is read is what was checked. A folder, FIFO, socket or device is refused. A whole read is
 * bounded by the caller's limit, also for a file that grows while it is read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import { AgentChaosError } from "./errors.js";

export type FileReadErrorCode =
  | "FILE_NOT_FOUND"
  | "FILE_NOT_REGULAR"
  | "FILE_TOO_LARGE"
  | "FILE_LINE_TOO_LONG"
  | "FILE_UNREADABLE";

/** What a path that is not a regular file is. */
export type NotRegularKind = "folder" | "FIFO" | "socket" | "device" | "special file";

/**
 * A file could not be read. `reason` completes a sentence about the file ("report.json " +
 * reason); it never holds file content. Callers name the file their own way.
 */
export class FileReadError extends AgentChaosError {
  declare readonly code: FileReadErrorCode;
  /** The system error code of an open or read failure (`ENOENT`, `EACCES`, …), else null. */
  readonly errno: string | null;
  /** What the path is, for `FILE_NOT_REGULAR`. */
  readonly kind: NotRegularKind | null;
  /** The 1-based line of `FILE_LINE_TOO_LONG`. */
  readonly line: number | null;
  readonly reason: string;

  constructor(
    code: FileReadErrorCode,
    reason: string,
    details: { errno?: string; kind?: NotRegularKind; line?: number; cause?: unknown } = {},
  ) {
    super(code, reason, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    this.errno = details.errno ?? null;
    this.kind = details.kind ?? null;
    this.line = details.line ?? null;
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** `1048576` → `1 MiB`; other sizes in bytes. */
export function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "error";
}

/** The `FileReadError` of a failed open or read. */
function systemError(error: unknown): FileReadError {
  if (error instanceof FileReadError) return error;
  const errno = errnoOf(error);
  if (errno === "ENOENT" || errno === "ENOTDIR")
    return new FileReadError("FILE_NOT_FOUND", "not found", { errno, cause: error });
  if (errno === "EISDIR") return notRegular("folder");
  if (errno === "EACCES" || errno === "EPERM")
    return new FileReadError("FILE_UNREADABLE", "cannot be read: permission denied", { errno, cause: error });
  return new FileReadError("FILE_UNREADABLE", `cannot be read (${errno})`, { errno, cause: error });
}

function notRegular(kind: NotRegularKind): FileReadError {
  return new FileReadError(
    "FILE_NOT_REGULAR",
    kind === "folder" ? "is a folder, not a file" : `is a ${kind}, not a regular file`,
    { kind },
  );
}

function tooLarge(maxBytes: number): FileReadError {
  return new FileReadError("FILE_TOO_LARGE", `is larger than the ${sizeText(maxBytes)} limit`);
}

/** Throws unless `info` is a regular file of at most `maxBytes`. */
function checkRegular(info: Stats, maxBytes: number): void {
  if (info.isFile()) {
    if (info.size > maxBytes) throw tooLarge(maxBytes);
    return;
  }
  if (info.isDirectory()) throw notRegular("folder");
  if (info.isFIFO()) throw notRegular("FIFO");
  if (info.isSocket()) throw notRegular("socket");
  if (info.isCharacterDevice() || info.isBlockDevice()) throw notRegular("device");
  throw notRegular("special file");
}

/**
 * Opens a regular file for reading (of at most `maxBytes` by its size now; unbounded by
 * default). The caller closes the handle. Throws `FileReadError`.
 */
export async function openRegularFile(
  path: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    if (errnoOf(error) === "ENXIO") {
      // A socket cannot be opened at all: say what it is rather than the system's word.
      const info = await stat(path).catch(() => null);
      if (info !== null) checkRegular(info, maxBytes);
    }
    throw systemError(error);
  }
  try {
    checkRegular(await handle.stat(), maxBytes);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw systemError(error);
  }
}

/**
 * The bytes of a file read whole, sized by its size (one byte more, to see it end) and grown
 * (never past `maxBytes + 1`) when the file grows while it is read; over `maxBytes` is an error.
 */
class WholeFile {
  #buffer: Buffer;
  #length = 0;
  readonly #maxBytes: number;

  constructor(size: number, maxBytes: number) {
    // A size of 0 may be a file of /proc, whose size is not known before it is read; a sysctl
    // file there answers only a read from its start, so its first read must hold all of it.
    this.#buffer = Buffer.allocUnsafe(size === 0 ? Math.min(4096, maxBytes + 1) : size + 1);
    this.#maxBytes = maxBytes;
  }

  /** Where the next read goes: the buffer, and the offset (also the file position) and room in it. */
  room(): { buffer: Buffer; offset: number; length: number } {
    if (this.#length === this.#buffer.length) {
      const next = Buffer.allocUnsafe(Math.min(Math.max(this.#buffer.length * 2, 4096), this.#maxBytes + 1));
      this.#buffer.copy(next);
      this.#buffer = next;
    }
    return { buffer: this.#buffer, offset: this.#length, length: this.#buffer.length - this.#length };
  }

  /** A read gave `bytesRead` bytes: the whole file once it gave none, else null (read on). */
  took(bytesRead: number): Buffer | null {
    if (bytesRead === 0) return this.#buffer.subarray(0, this.#length);
    this.#length += bytesRead;
    if (this.#length > this.#maxBytes) throw tooLarge(this.#maxBytes);
    return null;
  }
}

/**
 * Reads a whole regular file of at most `maxBytes` bytes (a file whose size reads as 0, like
 * the files of /proc, is read to its end all the same). Throws `FileReadError`.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Buffer> {
  const handle = await openRegularFile(path, maxBytes);
  try {
    const file = new WholeFile((await handle.stat()).size, maxBytes);
    for (;;) {
      const { buffer, offset, length } = file.room();
      const whole = file.took((await handle.read(buffer, offset, length, offset)).bytesRead);
      if (whole !== null) return whole;
    }
  } catch (error) {
    throw systemError(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** `readRegularFile` for the few places that must read synchronously (small files). */
export function readRegularFileSync(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    if (errnoOf(error) === "ENXIO") {
      let info: Stats | null = null;
      try {
        info = statSync(path);
      } catch {
        // Gone or unreadable since: the open's own error says so.
      }
      if (info !== null) checkRegular(info, maxBytes);
    }
    throw systemError(error);
  }
  try {
    const info = fstatSync(fd);
    checkRegular(info, maxBytes);
    const file = new WholeFile(info.size, maxBytes);
    for (;;) {
      const { buffer, offset, length } = file.room();
      const whole = file.took(readSync(fd, buffer, offset, length, offset));
      if (whole !== null) return whole;
    }
  } catch (error) {
    throw systemError(error);
  } finally {
    closeSync(fd);
  }
}
