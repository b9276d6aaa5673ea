/**
 * Replacing byte literals in data that arrives in chunks: each literal is replaced everywhere,
 * one literal after another (as `replaceAll` applied in turn would), while no more than the
 * literal's length minus one byte is held back between chunks, so a literal split across two
 * chunks is still found. Memory stays bounded by the chunk size, whatever the length of the data.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { OutputWriteError } from "./write-file.js";

export interface LiteralReplacement {
  readonly literal: Buffer;
  readonly replacement: Buffer;
}

const EMPTY = Buffer.alloc(0);
/** How much of a file is read at once unless told otherwise. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/** Replaces every occurrence of one literal as chunks pass. */
class LiteralReplacer {
  #carry: Buffer = EMPTY;
  replaced = 0;

  constructor(
    readonly literal: Buffer,
    readonly replacement: Buffer,
  ) {}

  push(chunk: Buffer): Buffer[] {
    const data = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    const out: Buffer[] = [];
    let from = 0;
    for (let at = data.indexOf(this.literal, from); at >= 0; at = data.indexOf(this.literal, from)) {
      if (at > from) out.push(data.subarray(from, at));
      out.push(this.replacement);
      this.replaced += 1;
      from = at + this.literal.length;
    }
    // A literal starting in the last (length - 1) bytes may end in the next chunk.
    const cut = Math.max(from, data.length - (this.literal.length - 1));
    if (cut > from) out.push(data.subarray(from, cut));
    this.#carry = cut < data.length ? Buffer.from(data.subarray(cut)) : EMPTY;
    return out;
  }

  end(): Buffer[] {
    const rest = this.#carry;
    this.#carry = EMPTY;
    return rest.length > 0 ? [rest] : [];
  }
}

/** The replacements applied in order to a stream of chunks. */
export class LiteralReplacements {
  readonly #stages: LiteralReplacer[];

  constructor(replacements: readonly LiteralReplacement[]) {
    this.#stages = replacements
      .filter((entry) => entry.literal.length > 0)
      .map((entry) => new LiteralReplacer(entry.literal, entry.replacement));
  }

  /** How many literals were replaced so far. */
  get replaced(): number {
    return this.#stages.reduce((sum, stage) => sum + stage.replaced, 0);
  }

  /** The bytes that can be passed on after `chunk` (some of its end may be held back). */
  push(chunk: Buffer): Buffer {
    let data = chunk;
    for (const stage of this.#stages) data = Buffer.concat(stage.push(data));
    return data;
  }

  /** The bytes held back, once the data has ended. */
  end(): Buffer {
    let data = EMPTY;
    for (const stage of this.#stages) data = Buffer.concat([...stage.push(data), ...stage.end()]);
    return data;
  }

  /** A transform stream applying the replacements. */
  transform(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => done(null, this.push(chunk)),
      flush: (done) => done(null, this.end()),
    });
  }
}

export interface ReplaceInFileOptions {
  /** Bytes read at once (tests make it small to split literals across chunks). */
  readonly chunkBytes?: number;
}

/**
 * Replaces the literals in the file at `path`, streaming: a first pass reads until a literal is
 * found; only then is the file rewritten, through a temporary file renamed over it (same
 * permissions), so a failure leaves the file as it was. Returns how many literals were replaced.
 */
export async function replaceLiteralsInFile(
  path: string,
  replacements: readonly LiteralReplacement[],
  options: ReplaceInFileOptions = {},
): Promise<number> {
  const highWaterMark = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  if (!(await holdsAny(path, replacements, highWaterMark))) return 0;
  const temporary = `${path}.replacing`;
  const replacing = new LiteralReplacements(replacements);
  try {
    const { mode } = await stat(path);
    await pipeline(
      createReadStream(path, { highWaterMark }),
      replacing.transform(),
      createWriteStream(temporary, { mode: mode & 0o777 }),
    );
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw fileError("rewrite", path, error);
  }
  return replacing.replaced;
}

async function holdsAny(
  path: string,
  replacements: readonly LiteralReplacement[],
  highWaterMark: number,
): Promise<boolean> {
  const scan = new LiteralReplacements(replacements);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark })) {
      scan.push(chunk as Buffer);
      if (scan.replaced > 0) return true;
    }
  } catch (error) {
    throw fileError("read", path, error);
  }
  scan.end();
  return scan.replaced > 0;
}

function fileError(doing: string, path: string, error: unknown): OutputWriteError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason = typeof code === "string" ? code : "error";
  return new OutputWriteError(`cannot ${doing} ${basename(path)} (${reason})`, { cause: error });
}
