/**
 * The cassettes a schema-2 scenario names, checked before anything starts (docs/replay.md):
 * `validate` reads each one that exists and notes each one that does not yet; `run` needs
 * every one to exist. A cassette outside the scenario's folder tree is allowed, and said.
 */
import { dirname, isAbsolute, relative } from "node:path";
import type { Dependency, ReplayConfig } from "../scenario/types.js";
import { CassetteError } from "./errors.js";
import { type Cassette, readCassette } from "./reader.js";

/** A dependency that has `replay`. */
export type ReplayedDependency = Dependency & { readonly replay: ReplayConfig };

export function replayedDependencies(dependencies: readonly Dependency[]): ReplayedDependency[] {
  return dependencies.filter(
    (dependency): dependency is ReplayedDependency => dependency.replay !== undefined,
  );
}

/** The protocol a dependency's cassette is recorded in. */
export function cassetteProtocol(dependency: Dependency): "http" | "mcp" {
  return dependency.type === "http" ? dependency.protocol : "mcp";
}

/** The cassette path as messages show it: as the scenario wrote it. */
export function shownCassette(replay: ReplayConfig): string {
  return replay.cassetteAsWritten;
}

/** Whether the cassette lies outside the folder tree of the scenario file at `sourcePath`. */
export function outsideScenarioTree(replay: ReplayConfig, sourcePath: string): boolean {
  const from = relative(dirname(sourcePath), replay.cassette);
  return from.startsWith("..") || isAbsolute(from);
}

/** The command that records a scenario's cassettes. */
export function recordCommandLine(scenarioShown: string, dependency: string): string {
  return `agentchaos record ${scenarioShown} --dependency ${dependency}`;
}

/** Reads one dependency's cassette, checked against it. */
export function readDependencyCassette(dependency: ReplayedDependency): Promise<Cassette> {
  return readCassette(dependency.replay.cassette, shownCassette(dependency.replay), {
    dependency: dependency.name,
    protocol: cassetteProtocol(dependency),
  });
}

export interface CassetteCheck {
  /** Lines to print (notes, never errors). */
  readonly notes: string[];
  /** The first broken cassette, or null. */
  readonly error: CassetteError | null;
}

/**
 * `validate`'s look at the cassettes: each that exists is read whole; a missing one, or one
 * outside the scenario's folder tree, gets a note.
 */
export async function checkCassettes(
  dependencies: readonly Dependency[],
  sourcePath: string,
  scenarioShown: string,
): Promise<CassetteCheck> {
  const notes: string[] = [];
  for (const dependency of replayedDependencies(dependencies)) {
    const shown = shownCassette(dependency.replay);
    if (outsideScenarioTree(dependency.replay, sourcePath))
      notes.push(
        `Note: the cassette of ${dependency.name} is outside the scenario's folder: ${dependency.replay.cassette}`,
      );
    try {
      await readDependencyCassette(dependency);
    } catch (error) {
      if (!(error instanceof CassetteError)) throw error;
      if (error.code !== "CASSETTE_MISSING") return { notes, error };
      notes.push(
        `Note: cassette ${shown} of ${dependency.name} does not exist yet; record it with: ${recordCommandLine(scenarioShown, dependency.name)}`,
      );
    }
  }
  return { notes, error: null };
}
