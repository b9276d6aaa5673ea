/**
 * The truth evidence of a run (docs/evidence.md, rules after rule 5): the verify command's
 * outcome and the canaries of corruption faults seen in their sinks. Diagnostics name the fault,
 * the sink and the operation, never a canary or the value it replaced.
 */
import type { VerifyCompletedPayload } from "../events/addition-types.js";
import { printableLabel } from "../events/operation-label.js";
import type { EventPayload } from "../events/types.js";
import { aboutFault } from "./fault-diagnostics.js";

/** How the verify command ended, as the report and summary show it. */
export interface VerifyOutcome {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** Exit 0 within its time limit. */
  readonly passed: boolean;
}

/** One canary seen in one sink (the first time for that fault and sink). */
export interface CanarySighting {
  readonly faultId: string;
  readonly sink: string;
  /** The operation whose request carried it; null for stdout. */
  readonly operationId: string | null;
  /** That operation's label, or null for stdout. */
  readonly operation: string | null;
}

export interface TruthEvidence {
  /** The last VERIFY_COMPLETED, or null when no verify ran. */
  readonly verify: VerifyOutcome | null;
  /** In sequence order. */
  readonly canaries: readonly CanarySighting[];
}

export function verifyOutcomeOf(payload: VerifyCompletedPayload): VerifyOutcome {
  return {
    exitCode: payload.exit_code,
    timedOut: payload.timed_out,
    durationMs: payload.duration_ms,
    passed: !payload.timed_out && payload.exit_code === 0,
  };
}

/** What the analysis stream keeps of VERIFY_COMPLETED and CANARY_SEEN events. */
export class TruthRecords {
  #verify: VerifyCompletedPayload | null = null;
  readonly #canaries: CanarySighting[] = [];

  /**
   * Takes an event the rest of the analysis does not read (any other kind is ignored); a
   * sighting keeps the label its operation has now (`labelOf`), or its id when it has none.
   */
  take(payload: EventPayload, labelOf: (operationId: string) => string | null): true {
    if (payload.kind === "VERIFY_COMPLETED") this.#verify = payload;
    if (payload.kind === "CANARY_SEEN") {
      const id = payload.operation_id;
      this.#canaries.push({
        faultId: payload.fault_id,
        sink: payload.sink,
        operationId: id,
        operation: id === null ? null : printableLabel(labelOf(id) ?? id),
      });
    }
    return true;
  }

  evidence(): TruthEvidence {
    return {
      verify: this.#verify === null ? null : verifyOutcomeOf(this.#verify),
      canaries: [...this.#canaries],
    };
  }
}

/** `verify exited 1`, `verify timed out`, `verify ended without an exit code`. */
export function verifyWording(verify: VerifyOutcome): string {
  if (verify.timedOut) return "verify timed out";
  if (verify.exitCode === null) return "verify ended without an exit code";
  if (verify.exitCode < 0) return `verify was killed by signal ${-verify.exitCode}`;
  return `verify exited ${verify.exitCode}`;
}

/** The CLAIMED_SUCCESS diagnostic: "the agent reported success; verify exited 1". */
export function claimedSuccess(verify: VerifyOutcome): string {
  return `the agent reported success; ${verifyWording(verify)}`;
}

/** Where a canary arrived: `stdout`, or `tickets (tickets POST /tickets #1)`. */
export function sightingPlace(sighting: CanarySighting): string {
  return sighting.operation === null ? sighting.sink : `${sighting.sink} (${sighting.operation})`;
}

/** The CORRUPTION_PROPAGATED diagnostic, one per sighting. */
export function corruptionPropagated(sighting: CanarySighting): string {
  return aboutFault(sighting.faultId, `its canary reached ${sightingPlace(sighting)}`);
}
