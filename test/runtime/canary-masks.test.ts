import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canaryValues, withThousandsSeparators } from "../../src/faults/corruption/canary.js";
import { CanaryBook } from "../../src/faults/corruption/canary-book.js";
import { maskCanariesInLogs } from "../../src/runtime/canary-masks.js";
import type { CorruptionFault } from "../../src/scenario/types.js";
import { tempDir } from "../helpers/temp.js";

const RUN_ID = "20261201T000000Z-aaaaaaaa";
const fault = (id: string): CorruptionFault =>
  ({ id, type: "http_corrupt", dependency: "shop", sinks: ["stdout"] }) as unknown as CorruptionFault;

function armedBook(): CanaryBook {
  const book = new CanaryBook(RUN_ID, [fault("wrong-note"), fault("wrong-price")], { emit: () => undefined });
  book.arm("wrong-note", "string");
  book.arm("wrong-price", "number");
  return book;
}

describe("maskCanariesInLogs", () => {
  let dir: { path: string; remove: () => Promise<void> };
  beforeEach(async () => {
    dir = await tempDir("agentchaos-masks-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  const note = canaryValues(RUN_ID, "wrong-note").text;
  const price = canaryValues(RUN_ID, "wrong-price").integer;

  it("masks a canary split across two chunks, in every log of the run folder and its subfolders", async () => {
    await mkdir(join(dir.path, "dependencies"));
    const line = `said ${note} for ${price} (${withThousandsSeparators(price)})\n`;
    const workload = join(dir.path, "workload.log");
    const dependency = join(dir.path, "dependencies", "shop.log");
    await writeFile(workload, line.repeat(50));
    await writeFile(dependency, `x${line}`);
    await writeFile(join(dir.path, "notes.txt"), line);
    await maskCanariesInLogs(dir.path, armedBook(), { chunkBytes: 7 });
    const masked = "said [canary wrong-note] for [canary wrong-price] ([canary wrong-price])\n";
    expect(await readFile(workload, "utf8")).toBe(masked.repeat(50));
    expect(await readFile(dependency, "utf8")).toBe(`x${masked}`);
    expect(await readFile(join(dir.path, "notes.txt"), "utf8")).toBe(line);
    expect((await readdir(dir.path)).sort()).toEqual(["dependencies", "notes.txt", "workload.log"]);
  });

  it("leaves a log without a canary untouched and keeps a rewritten log's permissions", async () => {
    const plain = join(dir.path, "plain.log");
    const secret = join(dir.path, "secret.log");
    await writeFile(plain, "nothing to see\n", { mode: 0o600 });
    await writeFile(secret, `token ${note}\n`, { mode: 0o640 });
    const before = await stat(plain);
    await maskCanariesInLogs(dir.path, armedBook(), { chunkBytes: 3 });
    const after = await stat(plain);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ino).toBe(before.ino);
    expect(await readFile(secret, "utf8")).toBe("token [canary wrong-note]\n");
    expect((await stat(secret)).mode & 0o777).toBe(0o640);
  });

  it("keeps a log as it was when it cannot be rewritten", async () => {
    const log = join(dir.path, "workload.log");
    await writeFile(log, `planted ${note}\n`);
    // The temporary file's place is taken by a folder: the rewrite fails.
    await mkdir(`${log}.replacing`);
    await maskCanariesInLogs(dir.path, armedBook());
    expect(await readFile(log, "utf8")).toBe(`planted ${note}\n`);
  });

  it("does nothing when no canary was armed", async () => {
    const log = join(dir.path, "workload.log");
    await writeFile(log, `planted ${note}\n`);
    const book = new CanaryBook(RUN_ID, [fault("wrong-note")], { emit: () => undefined });
    await maskCanariesInLogs(dir.path, book, { chunkBytes: 2 });
    expect(await readFile(log, "utf8")).toBe(`planted ${note}\n`);
  });
});
