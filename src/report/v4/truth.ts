/**
 * The keys report schema 5 adds for `verify` and the corruption faults (docs/reports.md):
 * `verify` — how the verify command ended, with its log files — present when the scenario has a
 * verify command (null when it did not run); `canaries` — each canary seen, by fault, sink and
 * operation — present when the scenario has a corruption fault. Never the canary, never the value
 * it replaced.
 */
import type { CanarySighting, VerifyOutcome } from "../../analysis/truth.js";
import type { RunAnalysis } from "../../analysis/types.js";
import { CORRUPTION_TYPES } from "../../scenario/corruption.js";
import type { Scenario } from "../../scenario/types.js";
import { type SnakeCased, snakeCased } from "../snake-cased.js";
import { FIELD, type Fields, type StrictObject } from "../strict-json.js";

/** How the verify command ended (`passed`: exit 0 within its time limit), with its log files. */
export type ReportVerify = SnakeCased<VerifyOutcome> & { readonly stdout: string; readonly stderr: string };

/** A canary seen in a sink, by the request that carried it (null for stdout) and its label. */
export type ReportCanary = SnakeCased<CanarySighting>;

/** The verify outcome suite entries and explore records carry. */
export type VerifyRecord = Pick<ReportVerify, "passed" | "exit_code" | "timed_out">;

export interface ReportTruth {
  readonly verify?: ReportVerify | null;
  readonly canaries?: readonly ReportCanary[];
}

export const TRUTH_KEYS = ["verify", "canaries"] as const;
const VERIFY: Fields<ReportVerify> = {
  exit_code: FIELD.nullableInteger,
  timed_out: FIELD.boolean,
  duration_ms: FIELD.integer,
  passed: FIELD.boolean,
  stdout: FIELD.string,
  stderr: FIELD.string,
};
const CANARY: Fields<ReportCanary> = {
  fault_id: FIELD.string,
  sink: FIELD.string,
  operation_id: FIELD.nullableString,
  operation: FIELD.nullableString,
};

export function reportTruth(scenario: Scenario, analysis: RunAnalysis): ReportTruth {
  const truth = analysis.truth;
  const verify = scenario.verify ?? null;
  const corruption = scenario.faults.some((fault) => CORRUPTION_TYPES.has(fault.type));
  return {
    ...(verify === null
      ? {}
      : {
          verify:
            truth?.verify == null
              ? null
              : { ...snakeCased(truth.verify), stdout: "verify.stdout.log", stderr: "verify.stderr.log" },
        }),
    ...(corruption
      ? {
          canaries: (truth?.canaries ?? []).map(snakeCased),
        }
      : {}),
  };
}

/** The truth keys a schema-5 document holds (each one optional). */
export function truthKeysIn(document: unknown): string[] {
  if (typeof document !== "object" || document === null) return [];
  return TRUTH_KEYS.filter((key) => Object.hasOwn(document, key));
}

/** Reads the truth keys of a schema-5 report strictly. */
export function readTruth(root: StrictObject, keys: readonly string[]): ReportTruth {
  return {
    ...(keys.includes("verify")
      ? { verify: root.raw("verify") === null ? null : root.record("verify", VERIFY) }
      : {}),
    ...(keys.includes("canaries") ? { canaries: root.recordList("canaries", CANARY) } : {}),
  };
}

/** A run's verify outcome as suite entries and explore records carry it (absent: no verify configured). */
export function verifyRecord(report: object): { verify?: VerifyRecord | null } {
  if (!("verify" in report)) return {};
  const verify = (report as ReportTruth).verify ?? null;
  return {
    verify:
      verify === null
        ? null
        : { passed: verify.passed, exit_code: verify.exit_code, timed_out: verify.timed_out },
  };
}
