import type { AnyAgentChaosEvent, EventSink, RunErrorReason } from "../events/types.js";
import type { CanaryBook } from "../faults/corruption/canary-book.js";
import type { ProxyOptions, RunningProxy } from "../proxy/server.js";
import type { Scenario } from "../scenario/types.js";
import type { TriggerClock } from "../triggers/index.js";
import { errorLabel } from "./error-label.js";
import type { RecordRequest } from "./replay-steps.js";
import type { RunAbort } from "./run-abort.js";

/** What each step of a run needs. */
export interface StepContext {
  /** The scenario in the internal model (a schema-1 scenario upgraded). */
  readonly scenario: Scenario;
  readonly runId: string;
  readonly runDir: string;
  readonly sink: EventSink;
  /** What outages and quotas read: the events' clock (trigger-clock.ts). */
  readonly triggerClock: TriggerClock;
  readonly interrupt: AbortSignal;
  readonly forceStop: AbortSignal;
  /** Starts loading what the rest of the run needs, while the dependency boots. */
  readonly preload: () => void;
  readonly startProxy: (options: ProxyOptions) => Promise<RunningProxy>;
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
  /** Stops the run from inside (a dependency died, an artifact could not be written). */
  readonly abortRun?: RunAbort;
  /** `agentchaos record`: the cassettes this run writes (docs/replay.md). */
  readonly record?: RecordRequest;
  /** The recorded events as they are recorded, and the recorder's clock (enforced `fail_fast`). */
  readonly recorded?: {
    onEvent(listener: (event: AnyAgentChaosEvent) => void): void;
    elapsedMs(): number;
  };
  /** The run's canaries (corruption faults and their sinks); absent or null when it has none. */
  readonly canaries?: CanaryBook | null;
}

/** A setup failure already described safely; becomes RUN_ERROR with its reason. */
export class SetupFailure extends Error {
  readonly reason: RunErrorReason;
  constructor(reason: RunErrorReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** `10` or `0.5`: the scenario's seconds without trailing zeros. */
export function seconds(value: number): string {
  return String(value);
}

/**
 * Records why the steps stopped: a SetupFailure with its own reason and safe message, anything
 * else as INTERNAL_ERROR naming the phase and the error's class or code (never its text).
 */
export function recordStepFailure(sink: EventSink, error: unknown, phase: string): void {
  if (error instanceof SetupFailure) {
    sink.emit({ kind: "RUN_ERROR", reason_code: error.reason, message: error.message });
    return;
  }
  sink.emit({
    kind: "RUN_ERROR",
    reason_code: "INTERNAL_ERROR",
    message: `internal error while ${phase} (${errorLabel(error)})`,
  });
}
