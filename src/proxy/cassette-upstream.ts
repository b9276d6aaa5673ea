/**
 * A dependency served from its cassette (docs/replay.md): an upstream the proxy's full pipeline
 * forwards to exactly as it forwards to a live one (the same `send(request, relay)`), so the
 * operations, faults and checks are those of a live run and no byte crosses a socket to reach
 * it. A request the cassette never recorded is answered `599` with a JSON body naming the
 * mismatch (the proxy records it as `replay_mismatch`), or, with `on_mismatch: live`, forwarded
 * to `base_url`.
 */
import type { ResponseRelay, UpstreamControl } from "../faults/types.js";
import type { Cassette, Interaction, RecordedEvent } from "../replay/cassette.js";
import { ReplayMatcher } from "../replay/cassette.js";
import type { ReplayMatchField } from "../scenario/types.js";
import { type CassetteDialect, httpDialect } from "./cassette-dialect.js";
import { Upstream, type UpstreamPort, type UpstreamRequest } from "./forward.js";

/** The status of a request the cassette never recorded. */
export const REPLAY_MISMATCH_STATUS = 599;

/** A request the cassette never recorded, and where it differs from the nearest one that was. */
export interface ReplayMismatch {
  readonly dependency: string;
  readonly method: string;
  readonly path: string;
  /** Whether a request with this method and path was recorded. */
  readonly nearestFound: boolean;
  /** The JSON Pointers where the body differs from the nearest recorded one (never values). */
  readonly pointers: readonly string[];
  /** The request carried an armed canary: the corruption, not the recording, made it differ. */
  readonly canaryCarried: boolean;
}

export interface CassetteUpstreamOptions {
  readonly dependency: string;
  readonly cassette: Cassette;
  /** The fields a request's key is made of (the scenario's `replay.match`; default: the cassette's). */
  readonly match?: readonly ReplayMatchField[];
  readonly timing: "recorded" | "immediate";
  readonly ignoreJsonFields: readonly string[];
  /** Where a mismatch is forwarded (`on_mismatch: live`); null: answered 599. */
  readonly liveBaseUrl: string | null;
  /** Called for each mismatch answered 599. */
  readonly onMismatch: (mismatch: ReplayMismatch) => void;
  /** How requests are keyed (default: plain HTTP with `ignoreJsonFields`). */
  readonly dialect?: CassetteDialect;
  /** Whether a request carries an armed canary (its mismatch is then the canary's doing). */
  readonly carriesCanary?: (target: string, body: Buffer | null) => boolean;
}

const SHOWN_POINTERS = 10;

/** One sentence naming a mismatch: dependency, method, path and the differing pointers. */
export function mismatchMessage(mismatch: ReplayMismatch): string {
  const request = mismatch.path === "" ? mismatch.method : `${mismatch.method} ${mismatch.path}`;
  const head = `replay mismatch on ${mismatch.dependency}: ${request} was not recorded`;
  if (!mismatch.nearestFound) return `${head}, and no ${request} was recorded at all`;
  if (mismatch.pointers.length === 0)
    return `${head} (its body matches the nearest recorded ${request}; the key differs)`;
  const shown = mismatch.pointers
    .slice(0, SHOWN_POINTERS)
    .map((pointer) => (pointer === "" ? '"" (the whole body)' : pointer));
  const more = mismatch.pointers.length - shown.length;
  return `${head}; the nearest recorded ${request} differs at ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/**
 * One recorded answer played into a relay, as the network would: the head, then the body at
 * once or each event at its recorded offset. The relay may pause, resume or abort it.
 */
class Playback implements UpstreamControl {
  readonly #relay: ResponseRelay;
  readonly #chunks: readonly { readonly at: number; readonly bytes: Buffer }[];
  #next = 0;
  #startedAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #paused = false;
  #aborted = false;
  readonly #done: () => void;

  /** `done`: called once, when the answer ended or was aborted. */
  constructor(
    relay: ResponseRelay,
    chunks: readonly { readonly at: number; readonly bytes: Buffer }[],
    done: () => void,
  ) {
    this.#relay = relay;
    this.#chunks = chunks;
    this.#done = done;
  }

  start(interaction: Interaction): void {
    this.#startedAt = performance.now();
    this.#relay.start(interaction.status, interaction.headers, this);
    this.#step();
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    if (this.#timer === null) this.#step();
  }

  abort(): void {
    if (this.#aborted) return;
    this.#aborted = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#done();
  }

  #step(): void {
    this.#timer = null;
    while (!this.#aborted && !this.#paused && this.#next < this.#chunks.length) {
      const chunk = this.#chunks[this.#next] as { at: number; bytes: Buffer };
      const wait = chunk.at - (performance.now() - this.#startedAt);
      if (wait > 0) {
        this.#timer = setTimeout(() => this.#step(), wait);
        return;
      }
      this.#next += 1;
      this.#relay.data(chunk.bytes);
    }
    if (!this.#aborted && !this.#paused && this.#next === this.#chunks.length) {
      this.#next += 1;
      this.#relay.end();
      this.#done();
    }
  }
}

/**
 * Events that arrived within this many ms of the first of their batch were sent together: the
 * gap is the recording's transport (segments read one after the other), not the upstream's.
 */
const SAME_MOMENT_MS = 2;

/** Recorded events as the writes that replay them: one per batch, at the batch's first offset. */
function batches(events: readonly RecordedEvent[]): { at: number; bytes: Buffer }[] {
  const writes: { at: number; texts: string[] }[] = [];
  for (const event of events) {
    const last = writes.at(-1);
    if (last !== undefined && event.offset_ms - last.at <= SAME_MOMENT_MS) last.texts.push(event.text);
    else writes.push({ at: event.offset_ms, texts: [event.text] });
  }
  return writes.map((write) => ({ at: write.at, bytes: Buffer.from(write.texts.join(""), "utf8") }));
}

/** What a recorded answer sends after its head, and when (ms from the head). */
function chunksOf(interaction: Interaction, head: boolean, timing: "recorded" | "immediate") {
  if (head) return [];
  if (interaction.events !== undefined) {
    if (timing === "immediate")
      return [{ at: 0, bytes: Buffer.from(interaction.events.map((event) => event.text).join(""), "utf8") }];
    return batches(interaction.events);
  }
  const bytes =
    interaction.body_base64 !== undefined
      ? Buffer.from(interaction.body_base64, "base64")
      : Buffer.from(interaction.body ?? "", "utf8");
  return bytes.length === 0 ? [] : [{ at: 0, bytes }];
}

export class CassetteUpstream implements UpstreamPort {
  readonly #options: CassetteUpstreamOptions;
  readonly #matcher: ReplayMatcher;
  readonly #dialect: CassetteDialect;
  readonly #live: Upstream | null;
  readonly #playing = new Set<Playback>();

  /** Throws a `TypeError` when `liveBaseUrl` is not an absolute http(s) URL. */
  constructor(options: CassetteUpstreamOptions) {
    this.#options = options;
    this.#matcher = new ReplayMatcher(options.cassette, options.match);
    this.#dialect = options.dialect ?? httpDialect(options.ignoreJsonFields);
    this.#live = options.liveBaseUrl === null ? null : new Upstream(options.liveBaseUrl);
  }

  async ready(): Promise<void> {
    await this.#live?.ready();
  }

  async close(): Promise<void> {
    for (const playback of [...this.#playing]) playback.abort();
    await this.#live?.close();
  }

  send(request: UpstreamRequest, relay: ResponseRelay): void {
    const method = request.method.toUpperCase();
    const keyed = this.#dialect.keyOf(method, request.target, request.body);
    let answer: Interaction;
    if (keyed === null) answer = this.#dialect.localAnswer(method);
    else {
      const interaction = this.#matcher.next(keyed.key);
      if (interaction === null && this.#live !== null) {
        this.#live.send(request, relay);
        return;
      }
      answer =
        interaction === null
          ? this.#mismatch(keyed.key.method, keyed.key.path, keyed.shapeBody, request)
          : keyed.answer(interaction);
    }
    this.#play(answer, method === "HEAD", relay);
  }

  #play(answer: Interaction, head: boolean, relay: ResponseRelay): void {
    const playback: Playback = new Playback(relay, chunksOf(answer, head, this.#options.timing), () =>
      this.#playing.delete(playback),
    );
    this.#playing.add(playback);
    // As from the network: the head arrives after `send` returns.
    setImmediate(() => {
      if (this.#playing.has(playback)) playback.start(answer);
    });
  }

  /** Reports the mismatch and builds its 599 answer. */
  #mismatch(method: string, path: string, body: Buffer | null, request: UpstreamRequest): Interaction {
    const nearest = this.#matcher.nearest(method, path, body, this.#dialect.shapeIgnore);
    const mismatch: ReplayMismatch = {
      dependency: this.#options.dependency,
      method,
      path,
      nearestFound: nearest.found,
      pointers: nearest.pointers,
      canaryCarried: this.#options.carriesCanary?.(request.target, request.body) ?? false,
    };
    this.#options.onMismatch(mismatch);
    return {
      method,
      path,
      query_hash: "",
      body_hash: "",
      request_shape: {},
      status: REPLAY_MISMATCH_STATUS,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        error: {
          type: "replay_mismatch",
          message: mismatchMessage(mismatch),
          dependency: mismatch.dependency,
          method,
          path,
          differing_pointers: nearest.found ? mismatch.pointers : null,
        },
      }),
    };
  }
}
