/**
 * Building a cassette while a run records it (docs/replay.md, `record`): interactions are
 * added in the order the upstream answered and the file is written once, atomically, at the
 * end. `--append` starts from an existing cassette and adds only the interactions whose key it
 * does not hold yet.
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ReplayMatchField } from "../scenario/types.js";
import { packageVersion } from "../support/version.js";
import {
  CASSETTE_VERSION,
  type CassetteHeader,
  cassetteText,
  type Interaction,
  replayKey,
} from "./format.js";
import type { Cassette } from "./reader.js";
import { newSalt } from "./request-shape.js";

export interface CassetteRecording {
  readonly dependency: string;
  readonly protocol: "http" | "mcp";
  readonly match: readonly ReplayMatchField[];
  /** Append to this cassette's interactions (its salt and match are kept); null: a fresh one. */
  readonly appendTo: Cassette | null;
  /** The time the recording started (the header's recorded_at). */
  readonly now?: Date;
}

export class CassetteBuilder {
  readonly header: CassetteHeader;
  readonly #kept: Interaction[];
  readonly #added: Interaction[] = [];
  readonly #keys = new Set<string>();
  /** Keys this run added (their later answers are kept too). */
  readonly #addedKeys = new Set<string>();

  constructor(recording: CassetteRecording) {
    const previous = recording.appendTo;
    this.header = {
      cassette: CASSETTE_VERSION,
      dependency: recording.dependency,
      protocol: recording.protocol,
      recorded_at: (recording.now ?? new Date()).toISOString(),
      agentchaos_version: packageVersion(),
      match: previous?.header.match ?? recording.match,
      salt: previous?.header.salt ?? newSalt(),
    };
    this.#kept = [...(previous?.interactions ?? [])];
    for (const interaction of this.#kept) this.#keys.add(replayKey(this.header.match, interaction));
  }

  /** The salt request shapes are hashed with. */
  get salt(): string {
    return this.header.salt;
  }

  /**
   * Adds an answered interaction. In a fresh recording every one is kept (the n-th answer of a
   * key is replayed to the n-th request); appending keeps only keys the cassette did not hold.
   */
  add(interaction: Interaction): void {
    const key = replayKey(this.header.match, interaction);
    if (this.#kept.length > 0 && this.#keys.has(key) && !this.#addedKeys.has(key)) return;
    this.#addedKeys.add(key);
    this.#keys.add(key);
    this.#added.push(interaction);
  }

  /** Interactions recorded by this run (appended ones only, for `--append`). */
  get recorded(): number {
    return this.#added.length;
  }

  get interactions(): readonly Interaction[] {
    return [...this.#kept, ...this.#added];
  }

  /** Writes the cassette through a temporary file and a rename (folders created). */
  async write(path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.tmp`;
    try {
      await writeFile(temporary, cassetteText(this.header, this.interactions), "utf8");
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw error;
    }
  }
}
