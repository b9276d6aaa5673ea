/**
 * The fixed diagnostic sentences of schema 1 (docs/evidence.md, "Diagnostics"; the Python tool's
 * wording), made only of counts, codes and fixed words. Singular counts keep the plural words, as
 * the Python tool does. The internal model's sentences about one fault start with these.
 */
export const DIAGNOSTICS = {
  workloadNotCompleted: "workload completion was not recorded",
  /** Completed without an exit code, neither timed out nor interrupted (an addition; see verdict.ts). */
  exitCodeNotRecorded: "the workload exit code was not recorded",
  interrupted: "the workload was interrupted",
  timedOut: "the workload timed out",
  duplicateSequences: "duplicate event sequence numbers were recorded",
  probabilityContradicted: "probability trigger selections contradicted the recorded operations",
  faultNotTriggered: "the configured trigger produced no fault injection",
  duplicateInjection: "duplicate fault injection evidence was recorded for one operation",
} as const;

export function exitCodeMismatch(expected: number, actual: number): string {
  return `expected workload exit code ${expected}, got ${actual}`;
}

export function tooManyInjections(scheduled: number, recorded: number): string {
  return `the fault schedule configured ${scheduled} injections, but ${recorded} were recorded`;
}

export function scheduleIncomplete(scheduled: number, completed: number): string {
  return `the fault schedule configured ${scheduled} injections, but only ${completed} completed`;
}

export function windowIncomplete(required: number, evaluated: number): string {
  return `the probability window required ${required} evaluations, but only ${evaluated} completed`;
}

export function recoveryNotObserved(required: number, successful: number): string {
  return `${required} recoveries were required, but ${successful} successful recoveries were observed`;
}
