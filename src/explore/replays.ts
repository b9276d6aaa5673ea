/**
 * `replays/NN-<slug>.yaml` (docs/explore.md, "Output"): for each failure, a complete schema-2 scenario
 * that reproduces it with `agentchaos run`. Relative `cwd`s are written from the replays folder.
 */
import { join } from "node:path";
import { makeFolders } from "../runtime/run-folder.js";
import type { Scenario } from "../scenario/types.js";
import { writeFileAtomically } from "../support/write-file.js";
import { scenarioText } from "./scenario-text.js";

export const REPLAYS_FOLDER = "replays";
const MAX_SLUG = 64;

/** Lower-case words of the label joined by `-`: `crm GET /orders/7 #2 | http_error …` → `crm-get-orders-7-2-http-error-…`. */
export function slugOf(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  const cut = slug.slice(0, MAX_SLUG).replace(/-+$/, "");
  return cut === "" ? "experiment" : cut;
}

/** `01`, `02`, ... (three digits from the 100th replay on). */
export function replayNumber(index: number, total: number): string {
  return String(index + 1).padStart(total >= 100 ? 3 : 2, "0");
}

export interface ReplayInput {
  readonly scenario: Scenario;
  readonly label: string;
  readonly experimentId: string;
  readonly observed: string;
}

/** Writes one replay per input into `<folder>/replays/`; returns their paths relative to `folder`. */
export async function writeReplays(
  folder: string,
  exploreId: string,
  inputs: readonly ReplayInput[],
): Promise<string[]> {
  if (inputs.length === 0) return [];
  const dir = join(folder, REPLAYS_FOLDER);
  await makeFolders(dir);
  const written: string[] = [];
  for (const [index, input] of inputs.entries()) {
    const number = replayNumber(index, inputs.length);
    const name = `${number}-${slugOf(input.label)}.yaml`;
    const scenario = { ...input.scenario, name: `${input.scenario.name} (replay ${number})` };
    const text = scenarioText(scenario, dir, [
      `Replay ${number} of explore ${exploreId}, experiment ${input.experimentId}:`,
      `  ${input.label}`,
      `Observed: ${input.observed}.`,
      `Run it alone: agentchaos run ${REPLAYS_FOLDER}/${name} (from the explore folder)`,
    ]);
    await writeFileAtomically(dir, name, text);
    written.push(`${REPLAYS_FOLDER}/${name}`);
  }
  return written;
}
