/**
 * A long synthetic run, as the bench writes it (bench/lib/long-log.mjs): an agent loop with a few
 * operations open at once (interleaved), scheduled faults whose failures are retried a little
 * later, the odd upstream error; schema 1 (one dependency, one fault) or schema 2 (two
 * dependencies, one fault each, chain recovery). Faults are scheduled closer than the bench's,
 * so that a run of tens of thousands of events reaches every one of them.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { longRunScenario as benchScenario, writeLongLog } from "../../bench/lib/long-log.mjs";

const FAULT_SPACING = 50;

/** The scenario of a long run (YAML). */
export function longRunScenario(schema: 1 | 2): string {
  return benchScenario(schema, { faultSpacing: FAULT_SPACING });
}

/** A run folder of a long run killed before its report: scenario.yaml and about `target` events. */
export async function writeLongRun(folder: string, schema: 1 | 2, target: number): Promise<void> {
  await writeFile(join(folder, "scenario.yaml"), longRunScenario(schema));
  writeLongLog(join(folder, "events.jsonl"), { schema, target, faultSpacing: FAULT_SPACING });
}
