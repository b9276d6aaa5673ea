import type { EventSink, RunErrorReason } from "../events/types.js";
import type { EventSinkV2 } from "../events/types-v2.js";
import type { ProxyOptions, RunningProxy } from "../proxy/server.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";

/** What each step of a run needs. */
export interface StepContext<S extends AnyScenario = Scenario> {
  readonly scenario: S;
  readonly runId: string;
  readonly runDir: string;
  readonly sink: EventSink & EventSinkV2;
  readonly interrupt: AbortSignal;
  readonly forceStop: AbortSignal;
  /** Starts loading what the rest of the run needs, while the dependency boots. */
  readonly preload: () => void;
  readonly startProxy: (options: ProxyOptions) => Promise<RunningProxy>;
  readonly onWorkloadLine?: (stream: "out" | "err", line: string) => void;
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
