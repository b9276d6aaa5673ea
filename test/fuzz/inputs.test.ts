/**
 * Fuzzing of the two commands that read untrusted files: `validate` over mutated scenarios and
 * `inspect` over mutated reports. Whatever the input, the command answers with exit 0 or 2,
 * prints no stack trace, and never hangs. Fixed seed, fixed number of inputs. The commands run
 * in a worker thread (the built CLI core), so that a deadline can stop even one that never yields.
 */
import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { beforeDeadline } from "../helpers/eventually.js";
import type { Captured } from "../helpers/in-process.js";
import { tempDir } from "../helpers/temp.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SEED = 20261201;
/** Inputs tried per command (a few mutated scenarios are large, so validate gets fewer). */
const RUNS = { validate: 60, inspect: 250 } as const;
/** A hang check, not a speed goal: every seed input takes a few milliseconds. */
const PER_INPUT_MS = 10_000;
const STACK_TRACE = /\n\s+at \S.*:\d+:\d+/;

function filesIn(folder: string, extension: string): Buffer[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(extension))
    .map((name) => readFileSync(join(folder, name)));
}

const scenarioSeeds = [
  ...filesIn(join(ROOT, "examples", "scenarios"), ".yaml"),
  ...filesIn(join(ROOT, "examples", "scenarios", "llm"), ".yaml"),
  ...filesIn(join(ROOT, "test", "fixtures", "scenarios"), ".yaml"),
];
const reportSeeds = [
  ...filesIn(join(ROOT, "test", "fixtures", "reports", "valid"), ".json"),
  ...filesIn(join(ROOT, "test", "fixtures", "reports", "invalid"), ".json"),
];

/** Text that tends to break parsers: YAML and JSON syntax, escapes, control and odd characters. */
const hostileText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.constantFrom(
    ":",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a ",
    "*a",
    "*nowhere",
    "!!binary ",
    "? ",
    "|\n",
    ">-\n",
    "'",
    '"',
    "\\",
    "%zz",
    "\u0000",
    "\r",
    "\u001b[2J",
    "\u2028",
    "\ufeff",
    "---\n",
    "...\n",
    "\t",
    "#",
    "<<: *a",
    "1e400",
    "-0",
    ".nan",
    "9007199254740993",
    "18446744073709551616",
    "http://u:p%zz@h:1",
    "null",
    "true",
  ),
);

type Mutation = (input: Buffer) => Buffer;

const position = fc.nat();
const smallMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(position, hostileText).map(
    ([at, text]): Mutation =>
      (input) => {
        const i = at % (input.length + 1);
        return Buffer.concat([input.subarray(0, i), Buffer.from(text), input.subarray(i)]);
      },
  ),
  fc.tuple(position, fc.nat({ max: 64 })).map(
    ([at, length]): Mutation =>
      (input) => {
        const i = at % (input.length + 1);
        return Buffer.concat([input.subarray(0, i), input.subarray(i + length)]);
      },
  ),
  fc.tuple(position, fc.nat({ max: 40 }), fc.integer({ min: 2, max: 50 })).map(
    ([at, length, times]): Mutation =>
      (input) => {
        const i = at % (input.length + 1);
        const span = input.subarray(i, i + length);
        return Buffer.concat([input.subarray(0, i), ...Array(times).fill(span), input.subarray(i)]);
      },
  ),
  fc.tuple(position, fc.integer({ min: 0, max: 255 })).map(
    ([at, byte]): Mutation =>
      (input) => {
        if (input.length === 0) return input;
        const copy = Buffer.from(input);
        copy[at % copy.length] = byte;
        return copy;
      },
  ),
  fc.tuple(position, fc.constantFrom("[", "{a: ", "- "), fc.integer({ min: 1, max: 3000 })).map(
    ([at, open, depth]): Mutation =>
      (input) => {
        const i = at % (input.length + 1);
        return Buffer.concat([input.subarray(0, i), Buffer.from(open.repeat(depth)), input.subarray(i)]);
      },
  ),
  position.map(
    (at): Mutation =>
      (input) =>
        input.subarray(0, at % (input.length + 1)),
  ),
);

/** A line repeated into a file of up to about 1 MiB: many keys, the limits' ground. */
const growth: fc.Arbitrary<Mutation> = fc.tuple(position, fc.integer({ min: 1000, max: 30_000 })).map(
  ([at, times]): Mutation =>
    (input) => {
      const start = input.lastIndexOf(10, at % (input.length + 1)) + 1;
      const end = input.indexOf(10, start);
      const line = input.subarray(start, end === -1 ? input.length : end + 1);
      const copies = Math.min(times, Math.floor((1100 * 1024) / Math.max(line.length, 1)));
      return Buffer.concat([input.subarray(0, start), ...Array(copies).fill(line), input.subarray(start)]);
    },
);

/** Mostly small edits; rarely (they take longest) a file grown to the size limit. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 30, arbitrary: smallMutation },
  { weight: 1, arbitrary: growth },
);

/** A JSON value where a report field was: wrong types, huge and odd numbers, hostile strings. */
const jsonReplacement = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    9007199254740991,
    9007199254740993n,
    -1,
    1.5,
    1e308,
    "2026-13-45T99:99:99Z",
    "\u001b[2J\rResult: PASSED",
    "",
    null,
    [],
    {},
  ),
);

/** Sets (or deletes, or adds) a value somewhere in a parsed report, then serialises it. */
const reportEdit = fc
  .tuple(fc.nat(), fc.constantFrom("set", "delete", "add"), jsonReplacement)
  .map(([pick, action, value]) => (input: Buffer): Buffer => {
    let tree: unknown;
    try {
      tree = JSON.parse(input.toString("utf8"));
    } catch {
      return input;
    }
    const containers: Record<string, unknown>[] = [];
    const collect = (node: unknown): void => {
      if (node !== null && typeof node === "object") {
        containers.push(node as Record<string, unknown>);
        for (const child of Object.values(node)) collect(child);
      }
    };
    collect(tree);
    const target = containers[pick % containers.length] as Record<string, unknown>;
    const keys = Object.keys(target);
    const key =
      action === "add" || keys.length === 0 ? `extra_${pick % 7}` : (keys[pick % keys.length] as string);
    if (action === "delete") delete target[key];
    else target[key] = value;
    const text = JSON.stringify(tree, (_, v) => (typeof v === "bigint" ? Number.MAX_SAFE_INTEGER + 2 : v));
    return Buffer.from(text);
  });

/** The CLI core in a worker thread, one command at a time. */
class CliWorker {
  #worker: Worker | null = null;

  run(argv: readonly string[], cwd: string): Promise<Captured> {
    this.#worker ??= new Worker(new URL("./cli-worker.mjs", import.meta.url));
    const worker = this.#worker;
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => {
        worker.off("message", answered);
        reject(error);
      };
      const answered = (captured: Captured) => {
        worker.off("error", failed);
        resolve(captured);
      };
      worker.once("message", answered);
      worker.once("error", failed);
      worker.postMessage({ argv, cwd });
    });
  }

  async stop(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }
}

const cli = new CliWorker();
afterAll(() => cli.stop());

async function fuzz(
  command: "validate" | "inspect",
  seeds: readonly Buffer[],
  mutations: fc.Arbitrary<Mutation | ((input: Buffer) => Buffer)>,
): Promise<number> {
  const folder = await tempDir("agentchaos-fuzz-");
  let tried = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(mutations, { minLength: 1, maxLength: 4 }),
        async (seedIndex, edits) => {
          const input = edits.reduce((bytes, edit) => edit(bytes), seeds[seedIndex] as Buffer);
          const file = join(folder.path, command === "validate" ? "scenario.yaml" : "report.json");
          await writeFile(file, input);
          const answer = cli.run([command, file], folder.path);
          const { code, stdout, stderr } = await beforeDeadline(answer, {
            timeoutMs: PER_INPUT_MS,
            what: `${command} of a mutated input`,
          }).catch(async (error: unknown) => {
            await cli.stop(); // a hung command never yields: only stopping its thread ends it
            throw error;
          });
          tried++;
          expect([0, 2]).toContain(code);
          expect(stdout + stderr).not.toMatch(STACK_TRACE);
        },
      ),
      // No shrinking: a command that hung has to be stopped, and every shrunk input would wait as long.
      { seed: SEED, numRuns: RUNS[command], endOnFailure: true },
    );
  } finally {
    await folder.remove();
  }
  return tried;
}

describe("fuzzed inputs", () => {
  it("validate answers every mutated scenario with exit 0 or 2, no stack trace, and never hangs", async () => {
    const tried = await fuzz("validate", scenarioSeeds, mutation);
    expect(tried).toBe(RUNS.validate);
  });

  it("inspect answers every mutated report with exit 0 or 2, no stack trace, and never hangs", async () => {
    const tried = await fuzz("inspect", reportSeeds, fc.oneof(reportEdit, mutation));
    expect(tried).toBe(RUNS.inspect);
  });
});
