/**
 * A dependency served from its cassette (docs/replay.md): a loopback server that answers as
 * the recorded upstream did, and that the dependency's proxy forwards to exactly as it forwards
 * to a live upstream, so the operations, faults and checks are those of a live run. A request
 * the cassette never recorded is answered `599` with a JSON body naming the mismatch (the proxy
 * records it as `replay_mismatch`), or, with `on_mismatch: live`, forwarded to `base_url`.
 */
import { createServer, type ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Cassette, Interaction, RecordedEvent } from "../replay/cassette.js";
import { ReplayMatcher } from "../replay/cassette.js";
import { passOnRelay } from "./cassette-relay.js";
import { type LoopbackUpstream, listenLoopback, readCassetteRequest } from "./cassette-request.js";
import { Upstream } from "./forward.js";
import { identityRule } from "./identity.js";

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
}

export interface CassetteUpstreamOptions {
  readonly dependency: string;
  readonly cassette: Cassette;
  readonly timing: "recorded" | "immediate";
  readonly ignoreJsonFields: readonly string[];
  /** Where a mismatch is forwarded (`on_mismatch: live`); null: answered 599. */
  readonly liveBaseUrl: string | null;
  /** Called for each mismatch answered 599. */
  readonly onMismatch: (mismatch: ReplayMismatch) => void;
}

const SHOWN_POINTERS = 10;

/** One sentence naming a mismatch: dependency, method, path and the differing pointers. */
export function mismatchMessage(mismatch: ReplayMismatch): string {
  const request = `${mismatch.method} ${mismatch.path}`;
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

function serveEvents(
  response: ServerResponse,
  events: readonly RecordedEvent[],
  timing: "recorded" | "immediate",
): void {
  if (timing === "immediate") {
    response.end(events.map((event) => event.text).join(""));
    return;
  }
  response.flushHeaders();
  const startedAt = performance.now();
  let next = 0;
  let timer: NodeJS.Timeout | null = null;
  const step = (): void => {
    timer = null;
    if (response.destroyed) return;
    const elapsed = performance.now() - startedAt;
    let due = "";
    while (next < events.length && (events[next] as RecordedEvent).offset_ms <= elapsed) {
      due += (events[next] as RecordedEvent).text;
      next += 1;
    }
    if (next >= events.length) {
      response.end(due);
      return;
    }
    if (due !== "") response.write(due);
    timer = setTimeout(step, (events[next] as RecordedEvent).offset_ms - elapsed);
  };
  response.once("close", () => {
    if (timer !== null) clearTimeout(timer);
  });
  step();
}

function serve(
  response: ServerResponse,
  interaction: Interaction,
  head: boolean,
  timing: "recorded" | "immediate",
): void {
  const headers: Record<string, string> = { ...interaction.headers };
  if (interaction.events !== undefined) {
    response.writeHead(interaction.status, headers);
    if (head) response.end();
    else serveEvents(response, interaction.events, timing);
    return;
  }
  const body =
    interaction.body_base64 !== undefined
      ? Buffer.from(interaction.body_base64, "base64")
      : Buffer.from(interaction.body ?? "", "utf8");
  headers["content-length"] = String(body.length);
  response.writeHead(interaction.status, headers);
  response.end(head ? undefined : body);
}

export async function startCassetteUpstream(options: CassetteUpstreamOptions): Promise<LoopbackUpstream> {
  const matcher = new ReplayMatcher(options.cassette);
  const identity = identityRule(options.ignoreJsonFields);
  const live = options.liveBaseUrl === null ? null : new Upstream(options.liveBaseUrl);
  await live?.ready();
  const server = createServer((request, response) => {
    readCassetteRequest(request, identity, (read) => {
      const interaction = matcher.next(read.key);
      if (interaction !== null) {
        serve(response, interaction, read.method === "HEAD", options.timing);
        return;
      }
      if (live !== null) {
        live.send(
          { method: read.method, target: read.target.forward, headers: read.headers, body: read.body.bytes },
          passOnRelay(response, null),
        );
        return;
      }
      const nearest = matcher.nearest(
        read.key.method,
        read.key.path,
        read.body.bytes,
        options.ignoreJsonFields,
      );
      const mismatch: ReplayMismatch = {
        dependency: options.dependency,
        method: read.key.method,
        path: read.key.path,
        nearestFound: nearest.found,
        pointers: nearest.pointers,
      };
      options.onMismatch(mismatch);
      const body = JSON.stringify({
        error: {
          type: "replay_mismatch",
          message: mismatchMessage(mismatch),
          dependency: mismatch.dependency,
          method: mismatch.method,
          path: mismatch.path,
          differing_pointers: nearest.found ? mismatch.pointers : null,
        },
      });
      response.writeHead(REPLAY_MISMATCH_STATUS, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
      });
      response.end(body);
    });
  });
  return listenLoopback(server, async () => {
    await live?.close();
  });
}
