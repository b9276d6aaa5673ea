import type { Server, Socket } from "node:net";

/** The recorder's side of the barrier: its group commit. */
export interface EventBarrier {
  /** Whether recorded events still wait for their write. */
  hasUnwritten(): boolean;
  /** Writes them; throws when that is no longer possible. */
  flush(): void;
}

/** The socket methods that put bytes on a connection or close it. */
const SENDING_METHODS = ["write", "end", "destroy", "destroySoon", "resetAndDestroy"] as const;

type Method = (this: Socket, ...args: unknown[]) => unknown;

/**
 * Sends held back until the events recorded before them are written. While recorded events
 * wait for their write, a socket's sending calls are queued (in order, per socket) and run at
 * the end of the event-loop turn, right after one write of the turn's events: every event is
 * on disk before any byte that follows it, and the events of a busy turn go out in one write
 * instead of one write per response.
 */
class HeldSends {
  readonly #barrier: EventBarrier;
  readonly #queues = new Map<Socket, (() => void)[]>();
  #scheduled = false;

  constructor(barrier: EventBarrier) {
    this.#barrier = barrier;
  }

  mustHold(socket: Socket): boolean {
    return this.#queues.has(socket) || this.#barrier.hasUnwritten();
  }

  hold(socket: Socket, send: () => void): void {
    const queue = this.#queues.get(socket);
    if (queue === undefined) this.#queues.set(socket, [send]);
    else queue.push(send);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#release);
    }
  }

  readonly #release = (): void => {
    this.#scheduled = false;
    let written = true;
    try {
      this.#barrier.flush();
    } catch {
      written = false;
    }
    const queues = [...this.#queues];
    this.#queues.clear();
    for (const [socket, sends] of queues) {
      // Events that cannot be written may not be followed by bytes: the connection is cut.
      if (!written) destroyNow(socket);
      else for (const send of sends) send();
    }
  };
}

const originalDestroy = new WeakMap<Socket, Method>();

function destroyNow(socket: Socket): void {
  (originalDestroy.get(socket) ?? (socket.destroy as unknown as Method)).call(socket);
}

function guard(socket: Socket, held: HeldSends): void {
  const own = socket as unknown as Record<string, Method | undefined>;
  originalDestroy.set(socket, own.destroy as Method);
  for (const name of SENDING_METHODS) {
    const send = own[name];
    if (typeof send !== "function") continue;
    own[name] = function (this: Socket, ...args: unknown[]) {
      if (!held.mustHold(this)) return send.apply(this, args);
      held.hold(this, () => send.apply(this, args));
      return name === "write" ? true : this;
    };
  }
}

/**
 * Puts the write barrier on one socket: what is recorded before a byte goes to the peer, or
 * before the connection is closed, is written first, whichever response, relay or fault sends it.
 */
export function guardSocket(socket: Socket, barrier: EventBarrier): void {
  guard(socket, new HeldSends(barrier));
}

/** The write barrier on every connection `server` accepts (one queue for them all). */
export function guardConnections(server: Server, barrier: EventBarrier): void {
  const held = new HeldSends(barrier);
  server.on("connection", (socket: Socket) => guard(socket, held));
}
