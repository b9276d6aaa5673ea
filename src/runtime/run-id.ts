import { randomBytes } from "node:crypto";

/** `YYYYMMDDTHHMMSSZ-<8 lowercase hex>` in UTC (docs/cli.md). */
export function makeRunId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
  return `${stamp}-${randomBytes(4).toString("hex")}`;
}
