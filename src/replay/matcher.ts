/**
 * Which recorded interaction answers a request (docs/replay.md, matching): the n-th request
 * with a key gets the n-th interaction recorded with that key, and once those are used up the
 * last one again. A key never recorded has no answer; `nearest` then says where the request
 * differs from the closest recorded request of the same method and path.
 */

import type { ReplayMatchField } from "../scenario/types.js";
import { type Interaction, type RequestKeyFields, replayKey } from "./format.js";
import type { Cassette } from "./reader.js";
import { differingPointers, requestShape } from "./request-shape.js";

export interface NearestRequest {
  /** Whether a request of the same method and path was recorded at all. */
  readonly found: boolean;
  /** The JSON Pointers where the bodies differ ("" for a whole non-JSON body), sorted. */
  readonly pointers: readonly string[];
}

export class ReplayMatcher {
  readonly #cassette: Cassette;
  readonly #match: readonly ReplayMatchField[];
  readonly #byKey = new Map<string, Interaction[]>();
  readonly #served = new Map<string, number>();

  /**
   * `match`: the fields a key is made of — the scenario's `replay.match` (every interaction
   * stores all of them, so a cassette serves whatever fields the scenario asks for); by default
   * the ones it was recorded with.
   */
  constructor(cassette: Cassette, match: readonly ReplayMatchField[] = cassette.header.match) {
    this.#cassette = cassette;
    this.#match = match;
    for (const interaction of cassette.interactions) {
      const key = replayKey(match, interaction);
      const list = this.#byKey.get(key);
      if (list === undefined) this.#byKey.set(key, [interaction]);
      else list.push(interaction);
    }
  }

  get size(): number {
    return this.#cassette.interactions.length;
  }

  /** The interaction that answers this request, or null for a key never recorded. */
  next(request: RequestKeyFields): Interaction | null {
    const key = replayKey(this.#match, request);
    const list = this.#byKey.get(key);
    if (list === undefined) return null;
    const served = this.#served.get(key) ?? 0;
    this.#served.set(key, served + 1);
    return list[Math.min(served, list.length - 1)] as Interaction;
  }

  /**
   * Where a request with this body differs from the recorded request of the same method and
   * path that it differs least from (the first recorded on a tie). `ignore`: the
   * dependency's identity.ignore_json_fields.
   */
  nearest(
    method: string,
    path: string,
    body: Uint8Array | null,
    ignore: readonly string[] = [],
  ): NearestRequest {
    const live = requestShape(body, this.#cassette.header.salt, ignore);
    let best: string[] | null = null;
    for (const interaction of this.#cassette.interactions) {
      if (interaction.method.toUpperCase() !== method.toUpperCase() || interaction.path !== path) continue;
      const pointers = differingPointers(interaction.request_shape, live);
      if (best === null || pointers.length < best.length) best = pointers;
    }
    return best === null ? { found: false, pointers: [] } : { found: true, pointers: best };
  }
}
