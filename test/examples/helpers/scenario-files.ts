import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { EXAMPLES_DIR } from "./programs.js";

export const SCENARIOS_DIR = join(EXAMPLES_DIR, "scenarios");

/**
 * Every schema-1 `.yaml` file under examples/scenarios, recursively, as paths relative to that
 * folder. The schema-2 examples in `v2/` are left out: these checks read schema-1 keys.
 */
export function scenarioFiles(dir = SCENARIOS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return full === join(SCENARIOS_DIR, "v2") ? [] : scenarioFiles(full);
      return entry.name.endsWith(".yaml") ? [relative(SCENARIOS_DIR, full)] : [];
    })
    .sort();
}

/** The keys of a scenario file that the example checks read, as written in YAML. */
export interface RawFault {
  type: string;
  target: { method?: string; path: string };
  trigger: {
    occurrence?: number;
    occurrences?: number[];
    probability?: number;
    seed?: number;
    window?: { start_occurrence: number; end_occurrence: number };
  };
  [parameter: string]: unknown;
}

export interface RawScenario {
  dependency: { base_url: string; start: { command: string[]; cwd: string; readiness: { path: string } } };
  workload: { command: string[]; cwd: string; env?: Record<string, string>; proxy_url_env?: string };
  fault?: RawFault | null;
  success: { exit_code: number };
  timeout_seconds: number;
}

/** The YAML of one scenario file, read without the loader (for checks of what is written). */
export function rawScenario(file: string): RawScenario {
  return parse(readFileSync(join(SCENARIOS_DIR, file), "utf8")) as RawScenario;
}
