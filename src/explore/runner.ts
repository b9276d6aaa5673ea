/**
 * Runs explore's experiments: each exactly as `agentchaos run` would (`experiment`), into the
 * explore folder, through the suite's scheduler — `jobs` at a time, never two at once that name
 * the same fixed port. An interrupted run is not a result.
 */

import { join } from "node:path";
import { readEventsAny } from "../events/reader.js";
import type { AgentChaosEvent } from "../events/types.js";
import { type FinishedRun, finishedRun, type RunManySettings } from "../runtime/finished-run.js";
import { scenarioFixedPorts } from "../runtime/fixed-ports.js";
import { runScheduled } from "../runtime/run-scheduler.js";
import type { Scenario } from "../scenario/types.js";

export interface RunSettings extends RunManySettings {
  /** The explore folder (absolute): run folders are made in it. */
  readonly folder: string;
}

export interface Job {
  readonly scenario: Scenario;
  /** The run folder's `scenario.yaml`. */
  readonly text: string;
}

/** Reasons of a run that could not be set up: they say nothing about the agent (a fault acts only on its traffic). */
const SETUP_REASONS = new Set(["DEPENDENCY_START_FAILED", "PROXY_START_FAILED", "WORKLOAD_SPAWN_FAILED"]);

/**
 * Runs one job; null when it was interrupted. A run that could not be set up (a port taken in the
 * moment between picking it and the dependency binding it, on a busy machine) is run once more at
 * once; its folder stays. Never throws: a run that cannot be made is an INTERNAL_ERROR.
 */
export async function runJob(job: Job, settings: RunSettings): Promise<FinishedRun | null> {
  const runOnce = (): Promise<FinishedRun | null> =>
    finishedRun(job.scenario, settings.folder, settings, job.text);
  const first = await runOnce();
  if (first === null || settings.interrupt?.aborted === true || !SETUP_REASONS.has(first.run.reason_code)) {
    return first;
  }
  return runOnce();
}

/**
 * Runs `items` through the scheduler; `onFinished` gets each finished one in completion order.
 * Returns when all have run or the interrupt stopped the rest.
 */
export async function runAll<T>(
  items: readonly T[],
  jobOf: (item: T) => Job,
  settings: RunSettings,
  onFinished: (item: T, finished: FinishedRun) => void | Promise<void>,
): Promise<void> {
  const scheduled = items.map((item) => {
    const job = jobOf(item);
    return { item, job, ports: scenarioFixedPorts(job.scenario) };
  });
  await runScheduled(scheduled, {
    jobs: settings.jobs,
    stopped: () => settings.interrupt?.aborted === true,
    run: async ({ item, job }) => {
      const finished = await runJob(job, settings);
      if (finished !== null) await onFinished(item, finished);
    },
  });
}

/** The events of a finished run folder, or null when they cannot be read. */
export async function runEvents(runFolder: string): Promise<AgentChaosEvent[] | null> {
  try {
    const read = await readEventsAny(join(runFolder, "events.jsonl"));
    return read.schema === 1 ? null : read.events;
  } catch {
    return null;
  }
}
