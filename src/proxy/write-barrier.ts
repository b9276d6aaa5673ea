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

  /** Runs `method` on `socket` now, or holds the call until the turn's events are written. */
  send(socket: Socket, method: Method, args: unknown[], held: unknown): unknown {
    if (!this.#held.has(socket)) {
      if (!this.#events.hasUnwritten()) return method.apply(socket, args);
      if (!this.#wroteThisTurn) {
        this.#wroteThisTurn = true;
        this.#scheduleTurnEnd();
        if (!this.#write(socket)) return held;
        return method.apply(socket, args);
      }
    }
    const call = () => method.apply(socket, args);
    const queue = this.#held.get(socket);
    if (queue === undefined) this.#held.set(socket, [call]);
    else queue.push(call);
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

/** Where a guarded socket keeps each of its own sending methods, as they were before guarding. */
const ORIGINAL: Readonly<Record<string, symbol>> = Object.fromEntries(
  SENDING_METHODS.map((name) => [name, Symbol(`unguarded ${name}`)]),
);

type Guarded = Socket & Record<symbol, Method | undefined>;

/** Cuts a connection without going through the barrier. */
function destroyNow(socket: Socket): void {
  ((socket as Guarded)[ORIGINAL.destroy as symbol] ?? (socket.destroy as unknown as Method)).call(socket);
}

/**
 * The guarded methods of one barrier, shared by all its sockets (no closure per socket): each
 * calls the socket's own method through the barrier.
 */
function guardedMethods(barrier: Barrier): Readonly<Record<string, Method>> {
  return Object.fromEntries(
    SENDING_METHODS.map((name) => {
      const original = ORIGINAL[name] as symbol;
      const guarded: Method = function (this: Socket, ...args: unknown[]) {
        return barrier.send(
          this,
          (this as Guarded)[original] as Method,
          args,
          name === "write" ? true : this,
        );
      };
      return [name, guarded];
    }),
  );
}

function guard(socket: Socket, methods: Readonly<Record<string, Method>>): void {
  const own = socket as Guarded;
  for (const name of SENDING_METHODS) {
    const send = (own as unknown as Record<string, Method | undefined>)[name];
    if (typeof send !== "function") continue;
    own[ORIGINAL[name] as symbol] = send;
    (own as unknown as Record<string, Method>)[name] = methods[name] as Method;
  }
}

/**
 * Puts the write barrier on one socket: what is recorded before a byte goes to the peer, or
 * before the connection is closed, is written first, whichever response, relay or fault sends it.
 */
export function guardSocket(socket: Socket, events: EventBarrier): void {
  guard(socket, guardedMethods(new Barrier(events)));
}

/** The write barrier on every connection `server` accepts (one barrier for them all). */
export function guardConnections(server: Server, events: EventBarrier): void {
  const methods = guardedMethods(new Barrier(events));
  server.on("connection", (socket: Socket) => guard(socket, methods));
}
