// The types of long-log.mjs, for the tests that write their long runs with it.

/** Options of a long log: how many matching calls lie between two scheduled faults (default 5,000). */
export interface LongLogFaults {
  readonly faultSpacing?: number;
}

/** The scenario the log belongs to (YAML text). */
export function longRunScenario(schema: 1 | 2, options?: LongLogFaults): string;

/** Writes about `target` events of a schema-`schema` run to `path`. */
export function writeLongLog(
  path: string,
  options: LongLogFaults & { readonly schema: 1 | 2; readonly target: number },
): { readonly events: number; readonly operations: number };
