import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { canaryLiterals, canaryValues } from "../../src/faults/corruption/canary.js";
import { onlyRunDir, ROOT, testFolder } from "../helpers/cli.js";
import { runCliHere } from "../helpers/in-process-cli.js";

/** The truth examples (docs/examples.md): scenario → result, reason, exit, canary fault and type, original value. */
const TABLE = [
  ["ticket_lost_write_claimed_success", "FAILED", "CLAIMED_SUCCESS", 1, null, null, null],
  ["ticket_lost_write_reread_passed", "PASSED", "FAILURE_HANDLED", 0, null, null, null],
  ["shop_corrupt_price_propagated", "FAILED", "CORRUPTION_PROPAGATED", 1, "wrong-price", "number", "19.99"],
  ["shop_corrupt_price_cross_checked", "PASSED", "FAULT_TOLERATED", 0, "wrong-price", "number", "19.99"],
  [
    "notes_corrupt_result_propagated",
    "FAILED",
    "CORRUPTION_PROPAGATED",
    1,
    "wrong-note",
    "string",
    "Retry idempotent calls",
  ],
  [
    "notes_http_corrupt_result_propagated",
    "FAILED",
    "CORRUPTION_PROPAGATED",
    1,
    "wrong-note",
    "string",
    "Retry idempotent calls",
  ],
  [
    "notes_http_corrupt_result_cross_checked",
    "PASSED",
    "FAULT_TOLERATED",
    0,
    "wrong-note",
    "string",
    "Retry idempotent calls",
  ],
  [
    "notes_corrupt_result_cross_checked",
    "PASSED",
    "FAULT_TOLERATED",
    0,
    "wrong-note",
    "string",
    "Retry idempotent calls",
  ],
] as const;

const out = testFolder("each");

interface Line {
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

// The runs go through the CLI code in this process; examples.test.ts runs the built executable.
describe("truth examples through the CLI", () => {
  it.each(TABLE)(
    "%s ends %s / %s with exit %i, and no artifact holds the canary or the value it replaced",
    async (file, result, reason, exit, faultId, canaryType, original) => {
      const scenario = join(ROOT, "examples", "truth", "scenarios", `${file}.yaml`);
      const run = await runCliHere(["run", scenario, "--output-dir", out.path]);
      const runDir = onlyRunDir(out.path);
      const report = JSON.parse(readFileSync(join(runDir, "report.json"), "utf8"));
      expect([report.result, report.reason_code, run.code]).toEqual([result, reason, exit]);
      expect(report.schema_version).toBe(5);
      const events = readFileSync(join(runDir, "events.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as Line);
      expect(
        events.every((event) => (event as unknown as { schema_version: number }).schema_version === 3),
      ).toBe(true);
      if (faultId === null || canaryType === null || original === null) {
        const verify = events.find((event) => event.type === "VERIFY_COMPLETED");
        expect(verify?.payload).toMatchObject({ exit_code: exit === 1 ? 1 : 0, timed_out: false });
        expect(report.verify).toMatchObject({ passed: exit === 0, stdout: "verify.stdout.log" });
        if (exit === 1) expect(run.stdout).toContain("the agent reported success; verify exited 1");
        return;
      }
      const injected = events.find((event) => event.type === "FAULT_INJECTED");
      expect(injected?.payload).toMatchObject({ fault_id: faultId, canary_type: canaryType });
      // One CANARY_SEEN per sink; stdout and the dependency are watched apart, in either order.
      const seen = events.filter((event) => event.type === "CANARY_SEEN").map((event) => event.payload.sink);
      const sinks = exit === 1 ? ["stdout", faultId === "wrong-price" ? "shop" : "notes"] : [];
      expect([...seen].sort()).toEqual([...sinks].sort());
      // The canary of this run, as the contract derives it, and the upstream's own value.
      const literals = canaryLiterals(canaryType, canaryValues(basename(runDir), faultId));
      const planted = [...literals, original];
      for (const path of filesUnder(runDir)) {
        const text = readFileSync(path, "latin1");
        for (const value of planted) expect(text.includes(value), `${value} in ${path}`).toBe(false);
      }
      for (const value of planted) expect(run.stdout.includes(value)).toBe(false);
    },
  );
});
