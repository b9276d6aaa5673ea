import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  FileReadError,
  openRegularFile,
  readRegularFile,
  readRegularFileSync,
} from "../../src/support/regular-file.js";
import { testFolder } from "../helpers/cli.js";

const dir = testFolder("each");
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A FIFO nobody writes to: opening it for a blocking read would never return. */
function fifo(name: string): string {
  const path = join(dir.path, name);
  execFileSync("mkfifo", [path]);
  return path;
}

async function socketFile(name: string): Promise<string> {
  const path = join(dir.path, name);
  const server = createServer();
  servers.push(server);
  await new Promise<void>((listening) => server.listen(path, listening));
  return path;
}

async function refusal(read: () => Promise<unknown> | unknown): Promise<FileReadError> {
  try {
    await read();
  } catch (error) {
    if (error instanceof FileReadError) return error;
    throw error;
  }
  throw new Error("the read was not refused");
}

describe("the regular-file reader", () => {
  it("reads a regular file whole, and one of exactly the limit", async () => {
    const path = join(dir.path, "a.txt");
    await writeFile(path, "0123456789");
    expect((await readRegularFile(path, 10)).toString()).toBe("0123456789");
    expect(readRegularFileSync(path, 10).toString()).toBe("0123456789");
  });

  it("reads a file whose size reads as 0 (a /proc file) to its end, and refuses it once it passes the limit", async () => {
    const path = "/proc/self/environ";
    const expected = readFileSync(path);
    expect(expected.length).toBeGreaterThan(1);
    expect((await readRegularFile(path, 1 << 20)).equals(expected)).toBe(true);
    expect(readRegularFileSync(path, 1 << 20).equals(expected)).toBe(true);
    const limit = expected.length - 1;
    for (const error of [
      await refusal(() => readRegularFile(path, limit)),
      await refusal(() => readRegularFileSync(path, limit)),
    ]) {
      expect(error.code).toBe("FILE_TOO_LARGE");
    }
  });

  it.runIf(process.platform === "linux")(
    "reads a sysctl file of /proc whole, although it answers only a read from its start",
    async () => {
      // The ephemeral port range, which `{port}` stays below: it must be read whole, not as "3".
      const path = "/proc/sys/net/ipv4/ip_local_port_range";
      const expected = readFileSync(path);
      expect(expected.toString()).toMatch(/^\d+\s+\d+\n$/);
      expect((await readRegularFile(path, 4096)).equals(expected)).toBe(true);
      expect(readRegularFileSync(path, 4096).equals(expected)).toBe(true);
    },
  );

  it("refuses a file over the limit without reading it", async () => {
    const path = join(dir.path, "a.txt");
    await writeFile(path, "0123456789");
    for (const error of [
      await refusal(() => readRegularFile(path, 9)),
      await refusal(() => readRegularFileSync(path, 9)),
    ]) {
      expect(error.code).toBe("FILE_TOO_LARGE");
    }
  });

  it.runIf(process.platform === "linux")(
    "refuses a FIFO at once, asynchronously and synchronously, saying what it is",
    async () => {
      const path = fifo("pipe");
      for (const error of [
        await refusal(() => readRegularFile(path, 1024)),
        await refusal(() => readRegularFileSync(path, 1024)),
        await refusal(() => openRegularFile(path)),
      ]) {
        expect({ code: error.code, kind: error.kind, reason: error.reason }).toEqual({
          code: "FILE_NOT_REGULAR",
          kind: "FIFO",
          reason: "is a FIFO, not a regular file",
        });
      }
    },
  );

  it.runIf(process.platform === "linux")("refuses a socket, a device and a folder", async () => {
    const socket = await socketFile("s.sock");
    expect((await refusal(() => readRegularFile(socket, 1024))).kind).toBe("socket");
    await symlink("/dev/zero", join(dir.path, "zero"));
    expect((await refusal(() => readRegularFile(join(dir.path, "zero"), 1024))).kind).toBe("device");
    await mkdir(join(dir.path, "folder"));
    const folder = await refusal(() => readRegularFile(join(dir.path, "folder"), 1024));
    expect({ code: folder.code, kind: folder.kind, reason: folder.reason }).toEqual({
      code: "FILE_NOT_REGULAR",
      kind: "folder",
      reason: "is a folder, not a file",
    });
  });

  it("says a missing file is not found", async () => {
    const error = await refusal(() => readRegularFile(join(dir.path, "missing"), 1024));
    expect({ code: error.code, errno: error.errno }).toEqual({ code: "FILE_NOT_FOUND", errno: "ENOENT" });
  });

  it("follows a symlink to a regular file", async () => {
    await writeFile(join(dir.path, "real.txt"), "content");
    await symlink(join(dir.path, "real.txt"), join(dir.path, "link.txt"));
    expect((await readRegularFile(join(dir.path, "link.txt"), 100)).toString()).toBe("content");
  });

  it.runIf(process.platform === "linux")("reads a file whose size reads as 0 to its end", async () => {
    const text = (await readRegularFile("/proc/self/stat", 64 * 1024)).toString();
    expect(text).toMatch(/^\d+ \(/);
    expect(readRegularFileSync("/proc/self/stat", 64 * 1024).toString()).toMatch(/^\d+ \(/);
    expect((await refusal(() => readRegularFile("/proc/self/stat", 4))).code).toBe("FILE_TOO_LARGE");
  });
});
