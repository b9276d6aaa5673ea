import type { Dispatcher, Pool } from "undici";
import type { ResponseRelay, UpstreamControl } from "../faults/types.js";
import { baseUrlParts } from "./base-url.js";

type PoolConstructor = typeof Pool;
let poolClass: PoolConstructor | null = null;
let poolLoading: Promise<PoolConstructor> | null = null;

/**
 * undici's Pool module (alone: see src/types/undici-pool.d.ts for why not the package index),
 * loaded once, on first need: ~12 MB of memory that a run whose traffic all takes the fast
 * lane never pays.
 */
function loadPool(): Promise<PoolConstructor> {
  poolLoading ??= import("undici/lib/dispatcher/pool.js").then((module) => {
    poolClass = module.default;
    return poolClass;
  });
  return poolLoading;
}

/**
 * The pool waits on a slow upstream as long as the fast lane does (forever: undici's own
 * 300 s limits on the head and between body chunks would cut a slow stream the lane relays).
 * The workload's own timeouts decide; a timeout nobody configured is a fault nobody injected.
 */
export const POOL_OPTIONS = { headersTimeout: 0, bodyTimeout: 0 } as const;

/** One request as it goes upstream. */
export interface UpstreamRequest {
  readonly method: string;
  /** The raw request target: path plus `?query` when there is one. */
  readonly target: string;
  /** Flat name/value list, already filtered for hop-by-hop headers. */
  readonly headers: string[];
  readonly body: Buffer | null;
}

/**
 * What the full pipeline forwards through: the live upstream below, or something that stands in
 * for it and answers the same way (a cassette: docs/replay.md).
 */
export interface UpstreamPort {
  /** Sends `request`; the response (or the transport failure) goes to `relay`. Never throws. */
  send(request: UpstreamRequest, relay: ResponseRelay): void;
  /** Resolves once it can send. */
  ready(): Promise<void>;
  /** Ends every exchange in flight. */
  close(): Promise<void>;
}

/**
 * The upstream of one proxy: a keep-alive `undici` pool to `base_url`'s origin. It never
 * follows redirects, ignores `HTTP_PROXY` and friends (no proxy agent is involved) and
 * verifies TLS as usual. User information in `base_url` becomes HTTP Basic credentials on
 * requests that carry no `Authorization` of their own.
 */
export class Upstream implements UpstreamPort {
  readonly #origin: string;
  #pool: Pool | null = null;
  /** Requests sent before the pool module was loaded, in order. */
  #waiting: [UpstreamRequest, ResponseRelay][] = [];
  #closed = false;
  readonly #prefix: string;
  readonly #authorization: string | null;

  /** Throws a `TypeError` when `baseUrl` is not an absolute http(s) URL. */
  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("unsupported scheme");
    this.#origin = url.origin;
    const { prefix, authorization } = baseUrlParts(url);
    this.#prefix = prefix;
    this.#authorization = authorization;
  }

  /** Sends `request`; the response (or the transport failure) goes to `relay`. Never throws. */
  send(request: UpstreamRequest, relay: ResponseRelay): void {
    if (this.#closed) {
      relay.error(new Error("proxy closed"));
      return;
    }
    const pool = this.#pool ?? this.#createPool();
    if (pool === null) {
      this.#waiting.push([request, relay]);
      return;
    }
    const headers = this.#authorization === null ? request.headers : this.#withCredentials(request.headers);
    try {
      pool.dispatch(
        { path: this.#prefix + request.target, method: request.method, headers, body: request.body },
        new RelayHandler(relay),
      );
    } catch (error) {
      relay.error(error instanceof Error ? error : new Error("dispatch failed"));
    }
  }

  /**
   * Resolves once the pool module is loaded (it is loaded on the first `send` anyway, which then
   * waits for it): a proxy that will forward through it waits for this before it listens.
   */
  async ready(): Promise<void> {
    await loadPool();
  }

  /** Ends every upstream connection at once (pending requests fail). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const [, relay] of this.#waiting.splice(0)) relay.error(new Error("proxy closed"));
    await this.#pool?.destroy();
  }

  /** The pool, or null while its module loads (the waiting requests go out once it has). */
  #createPool(): Pool | null {
    if (poolClass === null) {
      if (this.#waiting.length === 0) {
        loadPool().then(
          () => {
            for (const [request, relay] of this.#waiting.splice(0)) this.send(request, relay);
          },
          (error: unknown) => {
            const failure = error instanceof Error ? error : new Error("pool unavailable");
            for (const [, relay] of this.#waiting.splice(0)) relay.error(failure);
          },
        );
      }
      return null;
    }
    this.#pool = new poolClass(this.#origin, POOL_OPTIONS);
    return this.#pool;
  }

  #withCredentials(headers: string[]): string[] {
    for (let i = 0; i < headers.length; i += 2) {
      if (headers[i]?.toLowerCase() === "authorization") return headers;
    }
    return [...headers, "authorization", this.#authorization as string];
  }
}

/** What a relay may do to the upstream exchange, through undici's controller. */
class Control implements UpstreamControl {
  readonly #controller: Dispatcher.DispatchController;
  constructor(controller: Dispatcher.DispatchController) {
    this.#controller = controller;
  }
  pause(): void {
    this.#controller.pause();
  }
  resume(): void {
    this.#controller.resume();
  }
  abort(): void {
    this.#controller.abort(new Error("relay aborted"));
  }
}

/**
 * undici's side of one forward: the response (or the failure) goes to `relay`. A class, so
 * that a request in flight holds one small object rather than a closure per callback.
 */
class RelayHandler implements Dispatcher.DispatchHandler {
  readonly #relay: ResponseRelay;
  #started = false;

  constructor(relay: ResponseRelay) {
    this.#relay = relay;
  }

  // Its presence selects undici's controller-based handler API.
  onRequestStart(): void {}

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Parameters<ResponseRelay["start"]>[1],
  ): void {
    if (statusCode < 200) return;
    this.#started = true;
    this.#relay.start(statusCode, headers, new Control(controller));
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#started) this.#relay.data(chunk);
  }

  onResponseEnd(): void {
    this.#relay.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#relay.error(error);
  }
}
