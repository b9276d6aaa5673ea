import { BODY_LIMIT } from "../support/body-limit.js";
import type { ResponseHeaders, ResponseRelay, UpstreamControl } from "./types.js";

/** How a rewriting relay takes a response: untouched, event by event as it arrives, or read whole. */
export type RewriteMode = "untouched" | "stream" | "whole";

/**
 * The relay of a fault that rewrites the upstream's answer on its way to `own`, the proxy's own
 * relay. The response's head decides how it is taken; a body read whole is held (up to 10 MiB,
 * as the proxy reads it anyway) and answered once it ended; one that outgrows that is relayed
 * untouched, and `own` answers it as it answers any such body.
 */
export abstract class BodyRewriteRelay implements ResponseRelay {
  protected readonly own: ResponseRelay;
  #mode: RewriteMode = "untouched";
  #status = 0;
  #headers: ResponseHeaders = {};
  #control: UpstreamControl | null = null;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(own: ResponseRelay) {
    this.own = own;
  }

  /** How the response with this head is taken. */
  protected abstract modeOf(status: number, headers: ResponseHeaders): RewriteMode;

  /** One chunk of a response taken event by event. */
  protected abstract streamData(chunk: Buffer): void;

  /** A response taken event by event ended: what is still held goes out before `own` ends. */
  protected abstract streamEnd(): void;

  /** A body read whole: the headers and body the workload is answered with. */
  protected abstract rewriteWhole(body: Buffer, headers: ResponseHeaders): [ResponseHeaders, Buffer];

  /** A body read whole outgrew the limit: it is relayed untouched from now on. */
  protected tooLarge(): void {}

  protected get status(): number {
    return this.#status;
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl): void {
    this.#status = status;
    this.#headers = headers;
    this.#control = control;
    this.#mode = this.modeOf(status, headers);
    if (this.#mode !== "whole") this.own.start(status, headers, control);
  }

  data(chunk: Buffer): void {
    if (this.#mode === "untouched") this.own.data(chunk);
    else if (this.#mode === "stream") this.streamData(chunk);
    else this.#collect(chunk);
  }

  end(): void {
    if (this.#mode === "stream") this.streamEnd();
    else if (this.#mode === "whole") {
      const body = Buffer.concat(this.#chunks, this.#size);
      this.#chunks = [];
      const [headers, answer] = this.rewriteWhole(body, this.#headers);
      this.own.start(this.#status, headers, this.#control as UpstreamControl);
      this.own.data(answer);
    }
    this.own.end();
  }

  error(error: Error): void {
    if (this.#mode === "whole") {
      this.#mode = "untouched";
      this.#chunks = [];
    }
    this.own.error(error);
  }

  #collect(chunk: Buffer): void {
    this.#size += chunk.length;
    this.#chunks.push(chunk);
    if (this.#size <= BODY_LIMIT) return;
    this.tooLarge();
    this.#mode = "untouched";
    this.own.start(this.#status, this.#headers, this.#control as UpstreamControl);
    for (const held of this.#chunks.splice(0)) this.own.data(held);
  }
}
