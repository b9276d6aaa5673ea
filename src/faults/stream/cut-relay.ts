import type { NotAppliedReason } from "../../events/types.js";
import { isEventStream } from "../../support/http-headers.js";
import type {
  FaultContext,
  ResponseHeaders,
  ResponseRelay,
  StreamingRelay,
  UpstreamControl,
} from "../types.js";
import { type CutPoint, type CutSpec, cutPoint } from "./cut-point.js";

/** The upstream exchange as a mid-stream fault sees it at its cut point. */
export interface HeldUpstream extends UpstreamControl {
  /** Stops reading the upstream response until `release`, whatever the workload's pace. */
  hold(): void;
  release(): void;
}

/** What a mid-stream fault is given when its cut point is reached. */
export interface CutSite {
  /** The upstream status, relayed to the workload. */
  readonly status: number;
  /** The workload's relay: everything before the cut point went through it. */
  readonly relay: StreamingRelay;
  readonly upstream: HeldUpstream;
}

/**
 * Acts at the cut point. Returns the relay that receives the rest of the upstream response
 * (starting with the rest of the chunk the cut point fell in), or null when the fault ended
 * the exchange (it then cancels the upstream itself).
 */
export type CutAction = (site: CutSite) => ResponseRelay | null;

const NOTHING = Buffer.alloc(0);

/**
 * The relay of every mid-stream fault (docs/faults.md, "the cut point"), for
 * `FaultContext.forward`. A 2xx response (an event stream, for `after_events`) is streamed to
 * the workload through a `StreamingRelay` until the cut point, where `act` takes over. Any
 * other response is relayed untouched by the proxy's own relay. A fault that never reached its
 * cut point records `FAULT_NOT_APPLIED` with the first reason that holds, right before the
 * operation's terminal event.
 */
export function relayWithCut(
  spec: CutSpec,
  context: FaultContext,
  act: CutAction,
): (ownRelay: ResponseRelay) => ResponseRelay {
  return (ownRelay) => new CutRelay(cutPoint(spec), spec.afterEvents !== null, context, act, ownRelay);
}

class CutRelay implements ResponseRelay {
  readonly #cut: CutPoint;
  readonly #needsStream: boolean;
  readonly #act: CutAction;
  readonly #ownRelay: ResponseRelay;
  /** Receives the upstream's calls: the proxy's own relay, the streaming relay, then the fault's. */
  #target: ResponseRelay;
  readonly #context: FaultContext;
  #streaming: CutSite | null = null;
  #reason: NotAppliedReason = "ended_before_cut";
  #acted = false;

  constructor(
    cut: CutPoint,
    needsStream: boolean,
    context: FaultContext,
    act: CutAction,
    ownRelay: ResponseRelay,
  ) {
    this.#cut = cut;
    this.#needsStream = needsStream;
    this.#context = context;
    this.#act = act;
    this.#ownRelay = ownRelay;
    this.#target = ownRelay;
    context.beforeTerminal(() => {
      if (!this.#acted) context.notApplied(this.#reason);
    });
  }

  start(status: number, headers: ResponseHeaders, control: UpstreamControl) {
    if (status < 200 || status > 299) this.#reason = "upstream_status";
    else if (this.#needsStream && !isEventStream(headers)) this.#reason = "not_a_stream";
    else {
      const upstream = heldUpstream(control);
      const relay = this.#context.streamingRelay();
      this.#streaming = { relay, upstream, status };
      this.#target = relay;
      relay.start(status, headers, upstream);
      if (this.#cut.atStart) this.#cutAt(NOTHING);
      return;
    }
    this.#ownRelay.start(status, headers, control);
  }

  data(chunk: Buffer): void {
    // Before the stream started or after the cut, there is no cut point to look for.
    const at = this.#streaming === null || this.#acted ? -1 : this.#cut.find(chunk);
    if (at < 0) {
      this.#target.data(chunk);
      return;
    }
    if (at > 0) this.#target.data(chunk.subarray(0, at));
    this.#cutAt(chunk.subarray(at));
  }

  end(): void {
    if (this.#streaming !== null && !this.#acted && this.#cut.reachedAtEnd()) this.#cutAt(NOTHING);
    this.#target.end();
  }

  error(error: Error): void {
    if (!this.#acted) this.#reason = "upstream_failed";
    this.#target.error(error);
  }

  #cutAt(rest: Buffer): void {
    const streaming = this.#streaming as CutSite;
    this.#acted = true;
    streaming.relay.takeOver();
    // Cancelling the upstream may report its error at once: it must not reach the relay.
    this.#target = IGNORED;
    this.#target = this.#act(streaming) ?? IGNORED;
    if (rest.length > 0) this.#target.data(rest);
  }
}

/** Receives what follows a cut that ended the exchange. */
const IGNORED: ResponseRelay = { start() {}, data() {}, end() {}, error() {} };

/** The upstream control with a hold that the workload's backpressure cannot lift. */
function heldUpstream(control: UpstreamControl): HeldUpstream {
  let held = false;
  return {
    pause: () => control.pause(),
    resume: () => {
      if (!held) control.resume();
    },
    abort: () => control.abort(),
    hold: () => {
      held = true;
      control.pause();
    },
    release: () => {
      held = false;
      control.resume();
    },
  };
}
