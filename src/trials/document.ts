/**
 * `trials.json` (see docs/trials.md): the record of one scenario's series of trials, written
 * into its trials folder next to the trials' run folders — by `run --trials`, and for each
 * scenario of a suite and each experiment of an explore run with trials. Two-space JSON, keys
 * in the order below, final newline.
 */
import {
  summarizeTrials,
  summaryFields,
  type TrialRun,
  type TrialsSummary,
  type TrialsVerdict,
  trialsVerdict,
} from "../report/trials.js";
import { writeFileAtomically } from "../support/write-file.js";
import type { SeriesDone } from "./series.js";

export const TRIALS_FILE_NAME = "trials.json";

export interface TrialsDocument extends TrialsSummary {
  readonly schema_version: 1;
  /** `path`: the scenario file, relative to the working directory; `name`: the scenario's name. */
  readonly scenario: { readonly path: string; readonly name: string };
  /** The trials asked for (more than `trials` when interrupted). */
  readonly requested: number;
  readonly min_pass_rate: number;
  /** Whether the series passes: the pass rate is at least `min_pass_rate`. */
  readonly passes: boolean;
  readonly interrupted: boolean;
  readonly started_at: string;
  readonly finished_at: string;
}

/** The document of a series' finished trials, and its verdict (exit code included). */
export function trialsDocument(input: {
  readonly scenario: { readonly path: string; readonly name: string };
  readonly runs: readonly TrialRun[];
  readonly requested: number;
  readonly minPassRate: number;
  readonly interrupted: boolean;
  readonly startedAt: string;
}): { readonly document: TrialsDocument; readonly verdict: TrialsVerdict } {
  const summary = summarizeTrials(input.runs);
  const verdict = trialsVerdict(summary, input.minPassRate, input.interrupted);
  const document: TrialsDocument = {
    schema_version: 1,
    scenario: input.scenario,
    ...summary,
    requested: input.requested,
    min_pass_rate: input.minPassRate,
    passes: verdict.passes,
    interrupted: input.interrupted,
    started_at: input.startedAt,
    finished_at: new Date().toISOString(),
  };
  return { document, verdict };
}

/** The file text: `schema_version`, `scenario`, the summary, then the series' settings and times. */
export function serializeTrials(document: TrialsDocument): string {
  const ordered = {
    schema_version: document.schema_version,
    scenario: { path: document.scenario.path, name: document.scenario.name },
    ...summaryFields(document),
    requested: document.requested,
    min_pass_rate: document.min_pass_rate,
    passes: document.passes,
    interrupted: document.interrupted,
    started_at: document.started_at,
    finished_at: document.finished_at,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/**
 * Writes the trials.json of a series into its trials folder (nothing when it has none);
 * returns the path written, or null.
 */
export async function writeSeriesFile(
  done: SeriesDone,
  scenario: { readonly path: string; readonly name: string },
  minPassRate: number,
  interrupted: boolean,
): Promise<string | null> {
  if (done.folder === null) return null;
  const { document } = trialsDocument({
    scenario,
    runs: done.runs,
    requested: done.count,
    minPassRate,
    interrupted,
    startedAt: done.startedAt ?? new Date().toISOString(),
  });
  return writeTrialsFile(done.folder, document);
}

/** Writes `<folder>/trials.json`; returns its absolute path. */
export function writeTrialsFile(folder: string, document: TrialsDocument): Promise<string> {
  return writeFileAtomically(folder, TRIALS_FILE_NAME, serializeTrials(document));
}
