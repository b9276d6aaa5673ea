import type { Server, Socket } from "node:net";

/** The recorder's side of the barrier: its group commit. */
export interface EventBarrier {
  /** Writes the recorded events still waiting for their write; throws when that is no longer possible. */
  flush(): void;
}

/** The socket methods that put bytes on a connection or close it. */
const SENDING_METHODS = ["write", "end", "destroy", "destroySoon", "resetAndDestroy"] as const;

type Method = (this: Socket, ...args: unknown[]) => unknown;

/**
 * Puts the write barrier on one socket: every method that sends bytes to the peer or closes the
 * connection first writes the events recorded before it (one write, nothing when none waits),
 * whichever response, relay or fault calls it. When they can no longer be written, the
 * connection is destroyed instead: no byte may follow an event that is not on disk.
 */
export function guardSocket(socket: Socket, barrier: EventBarrier): void {
  const own = socket as unknown as Record<string, Method | undefined>;
  const destroy = own.destroy as Method;
  for (const name of SENDING_METHODS) {
    const send = own[name];
    if (typeof send !== "function") continue;
    own[name] = function (this: Socket, ...args: unknown[]) {
      try {
        barrier.flush();
      } catch {
        destroy.call(this);
        return name === "write" ? false : this;
      }
      return send.apply(this, args);
    };
  }
}

/** The write barrier on every connection `server` accepts. */
export function guardConnections(server: Server, barrier: EventBarrier): void {
  server.on("connection", (socket: Socket) => guardSocket(socket, barrier));
}
