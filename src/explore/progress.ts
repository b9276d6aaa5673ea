/** What the explore engine reports as it goes (the terminal and library callers listen). */
import type { ExperimentRecord, RunRecord, UnavailableRecord } from "../report/explore-document.js";
import type { MenuEntry } from "./menu.js";
import type { InjectionPoint, SkippedPoint } from "./points.js";

export type ExploreProgress =
  | {
      readonly kind: "start";
      readonly folder: string;
      readonly exploreId: string;
      readonly scenarioName: string;
      readonly scenarioPath: string;
      readonly seed: number;
      readonly jobs: number;
      readonly depth: 1 | 2;
      readonly budget: number;
      readonly baselineRuns: number;
      /** Runs of each experiment (1: one, failures confirmed by a second). */
      readonly trials: number;
      readonly minPassRate: number;
    }
  | {
      readonly kind: "phase";
      readonly phase: "baseline" | "depth_1" | "depth_2" | "confirm";
      readonly total: number;
    }
  | {
      readonly kind: "baseline";
      readonly index: number;
      readonly run: RunRecord;
      readonly done: number;
      readonly total: number;
    }
  | {
      readonly kind: "plan";
      readonly points: readonly InjectionPoint[];
      readonly skipped: readonly SkippedPoint[];
      readonly menu: readonly MenuEntry[];
      readonly notAvailable: readonly UnavailableRecord[];
      readonly depth: 1 | 2;
      /** Experiments possible at this depth. */
      readonly candidates: number;
      /** Experiments chosen (the sample when over budget). */
      readonly planned: number;
    }
  | {
      readonly kind: "experiment";
      readonly phase: "depth_1" | "depth_2";
      readonly trial: ExperimentRecord;
      readonly done: number;
      readonly total: number;
      /** Estimated time left in this phase: the mean wall time per finished experiment so far, times those left. */
      readonly etaMs: number;
    }
  | {
      readonly kind: "confirmation";
      readonly trial: ExperimentRecord;
      readonly done: number;
      readonly total: number;
    };
