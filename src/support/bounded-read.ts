import { constants } from "node:fs";
import { open } from "node:fs/promises";

export type BoundedRead =
  | { readonly kind: "file"; readonly bytes: Buffer }
  | { readonly kind: "folder" }
  /** A FIFO, socket, device or anything else that is neither a regular file nor a folder. */
  | { readonly kind: "not-regular" }
  | { readonly kind: "too-large" };

/**
 * Reads a regular file of at most `maxBytes` bytes. The file is opened without blocking (a FIFO
 * with no writer would otherwise block the open forever) and checked through its own descriptor,
 * so what is read is what was checked; a file that grows past the limit while it is read is
 * refused too. Nothing else is ever read. Open and read failures reject with the system error.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<BoundedRead> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { kind: "folder" };
    if (!info.isFile()) return { kind: "not-regular" };
    if (info.size > maxBytes) return { kind: "too-large" };
    let buffer = Buffer.alloc(info.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        // The file grew while it was read: keep reading, but never past the limit.
        const grown = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return { kind: "too-large" };
    }
    return { kind: "file", bytes: buffer.subarray(0, length) };
  } finally {
    await handle.close();
  }
}
