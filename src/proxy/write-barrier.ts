import type { Server, Socket } from "node:net";

/** The recorder's side of the barrier: its group commit. */
export interface EventBarrier {
  /** Writes the recorded events still waiting for their write; throws when that is no longer possible. */
  flush(): void;
}

/** The socket methods that put bytes on a connection or close it. */
const SENDING_METHODS = ["write", "end", "destroy", "destroySoon", "resetAndDestroy"] as const;

type Method = (this: Socket, ...args: unknown[]) => unknown;

/** Where a guarded socket keeps each of its own sending methods, as they were before guarding. */
const ORIGINAL: Readonly<Record<string, symbol>> = Object.fromEntries(
  SENDING_METHODS.map((name) => [name, Symbol(`unguarded ${name}`)]),
);

type Guarded = Socket & Record<symbol, Method | undefined>;

/**
 * The guarded methods of one barrier, shared by all its sockets (no closure per socket): each
 * first writes the events recorded so far (one write, nothing when none waits), then calls the
 * socket's own method. When the events can no longer be written the connection is destroyed
 * instead: no byte may follow an event that is not on disk.
 */
function guardedMethods(events: EventBarrier): Readonly<Record<string, Method>> {
  return Object.fromEntries(
    SENDING_METHODS.map((name) => {
      const original = ORIGINAL[name] as symbol;
      const guarded: Method = function (this: Socket, ...args: unknown[]) {
        const own = this as Guarded;
        try {
          events.flush();
        } catch {
          (own[ORIGINAL.destroy as symbol] as Method).call(this);
          return name === "write" ? false : this;
        }
        return (own[original] as Method).apply(this, args);
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
 * Puts the write barrier on one socket: every byte to the peer, and every close, comes after
 * the events recorded before it are on disk, whichever response, relay or fault sends it.
 */
export function guardSocket(socket: Socket, events: EventBarrier): void {
  guard(socket, guardedMethods(events));
}

/** A function that puts one barrier on each socket it is given (the methods shared by all). */
export function socketGuard(events: EventBarrier): (socket: Socket) => void {
  const methods = guardedMethods(events);
  return (socket) => guard(socket, methods);
}

/** The write barrier on every connection `server` accepts. */
export function guardConnections(server: Server, events: EventBarrier): void {
  server.on("connection", socketGuard(events));
}
