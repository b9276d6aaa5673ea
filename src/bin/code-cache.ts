/**
 * V8's code cache for the files of the `agentchaos` executable
 * (docs/performance.md#third-pass-how-the-executables-code-is-loaded).
 *
 * Node 20 compiles every file it loads from its source, and V8 compiles each function again the
 * first time it runs: for a run that is some 60 ms of CPU before the first dependency starts.
 * The build runs a few commands with AGENTCHAOS_WRITE_CODE_CACHE set (scripts/code-cache.mjs):
 * at their exit, V8's compiled code of each file they loaded, the functions they ran included,
 * is written to the `code-cache` folder beside the files. Every later start hands that code to
 * V8 with the file's source. V8 takes it only when it was made by the same V8 with the same
 * flags for a source of the same length (each chunk's name carries the hash of its content);
 * otherwise it compiles the source as usual, so a missing or stale cache costs only its read.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

/** The part of Node's CommonJS module object this file takes over: compiling a file's source. */
interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

export const CODE_CACHE_FOLDER = "code-cache";
const WRITE_VARIABLE = "AGENTCHAOS_WRITE_CODE_CACHE";

function cacheFile(folder: string, filename: string): string {
  return join(folder, CODE_CACHE_FOLDER, `${basename(filename)}.bin`);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes each script's code as it is now (the functions compiled so far) over its cache file. */
function writeCaches(scripts: ReadonlyMap<string, Script>): void {
  for (const [file, script] of scripts) {
    try {
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, file);
    } catch {
      // A cache that cannot be written is only a slower start.
    }
  }
}

/**
 * Compiles the files of `folder` that Node loads from now on with their cached code. With
 * AGENTCHAOS_WRITE_CODE_CACHE=1 in the environment (the build), also writes their code at exit.
 */
export function useCodeCache(folder: string): void {
  const prototype = (Module as unknown as { prototype: CompilingModule }).prototype;
  const compile = prototype._compile;
  const writing = process.env[WRITE_VARIABLE] === "1";
  const compiled = new Map<string, Script>();
  prototype._compile = function compileWithCache(this: CompilingModule, content, filename) {
    if (dirname(filename) !== folder) return compile.call(this, content, filename);
    const file = cacheFile(folder, filename);
    const wrapped = `(function (exports, require, module, __filename, __dirname) { ${content}\n})`;
    const script = new Script(wrapped, { filename, cachedData: readCache(file) });
    if (writing) compiled.set(file, script);
    const body = script.runInThisContext() as (...args: unknown[]) => unknown;
    return body.call(this.exports, this.exports, createRequire(filename), this, filename, folder);
  };
  if (writing) process.once("exit", () => writeCaches(compiled));
}
