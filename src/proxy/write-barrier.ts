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
 * The write barrier of one or more sockets: no byte goes to a peer, and no connection closes,
 * before the events recorded ahead of it are written. The first send of an event-loop turn that
 * finds events waiting writes them at once and goes out (a lone response waits for nothing);
 * later sends of the same turn that find events waiting are held, in order per socket, until
 * the end of the turn, after one write of everything the turn recorded. So a quiet proxy adds no
 * latency and a busy one writes its events once per turn, not once per response.
 */
class Barrier {
  readonly #events: EventBarrier;
  readonly #held = new Map<Socket, (() => void)[]>();
  #wroteThisTurn = false;
  #turnEnd = false;

  constructor(events: EventBarrier) {
    this.#events = events;
  }

  /** Runs `send` now, or holds it until the turn's events are written. */
  send(socket: Socket, send: () => unknown, held: unknown): unknown {
    if (!this.#held.has(socket)) {
      if (!this.#events.hasUnwritten()) return send();
      if (!this.#wroteThisTurn) {
        this.#wroteThisTurn = true;
        this.#scheduleTurnEnd();
        if (!this.#write(socket)) return held;
        return send();
      }
    }
    const queue = this.#held.get(socket);
    if (queue === undefined) this.#held.set(socket, [send]);
    else queue.push(send);
    this.#scheduleTurnEnd();
    return held;
  }

  /** Writes the waiting events; false (the socket cut) when they cannot be written. */
  #write(socket: Socket): boolean {
    try {
      this.#events.flush();
      return true;
    } catch {
      destroyNow(socket);
      return false;
    }
  }

  #scheduleTurnEnd(): void {
    if (this.#turnEnd) return;
    this.#turnEnd = true;
    setImmediate(this.#release);
  }

  readonly #release = (): void => {
    this.#turnEnd = false;
    this.#wroteThisTurn = false;
    if (this.#held.size === 0) return;
    const held = [...this.#held];
    this.#held.clear();
    for (const [socket, sends] of held) {
      // Events that cannot be written may not be followed by bytes: the connection is cut.
      if (!this.#write(socket)) continue;
      // Corked, so that a response's head and body still leave in one write, as unheld.
      socket.cork();
      for (const send of sends) send();
      socket.uncork();
    }
  };
}

const originalDestroy = new WeakMap<Socket, Method>();

function destroyNow(socket: Socket): void {
  (originalDestroy.get(socket) ?? (socket.destroy as unknown as Method)).call(socket);
}

function guard(socket: Socket, barrier: Barrier): void {
  const own = socket as unknown as Record<string, Method | undefined>;
  originalDestroy.set(socket, own.destroy as Method);
  for (const name of SENDING_METHODS) {
    const send = own[name];
    if (typeof send !== "function") continue;
    const held = name === "write" ? true : socket;
    own[name] = function (this: Socket, ...args: unknown[]) {
      return barrier.send(this, () => send.apply(this, args), held);
    };
  }
}

/**
 * Puts the write barrier on one socket: what is recorded before a byte goes to the peer, or
 * before the connection is closed, is written first, whichever response, relay or fault sends it.
 */
export function guardSocket(socket: Socket, events: EventBarrier): void {
  guard(socket, new Barrier(events));
}

/** The write barrier on every connection `server` accepts (one barrier for them all). */
export function guardConnections(server: Server, events: EventBarrier): void {
  const barrier = new Barrier(events);
  server.on("connection", (socket: Socket) => guard(socket, barrier));
}
