import { createServer, type Server, type Socket } from "node:net";
import { type EventBarrier, socketGuard } from "../write-barrier.js";
import { LaneConnection, type LaneParts } from "./connection.js";

export interface Lane {
  /** Accepts every workload connection of the proxy; listen on it. */
  readonly server: Server;
  /** Ends every connection it accepted (also those handed to the full pipeline) and their upstream connections. */
  closeAll(): void;
}

/**
 * The fast lane in front of the full pipeline: a plain TCP server whose connections start in
 * the lane and move to Node's HTTP server (`handOff`) at their first request the lane does not
 * take. Every accepted socket carries the write barrier, whichever side ends up writing to it.
 */
export function createLane(parts: Omit<LaneParts, "retired">, barrier: EventBarrier): Lane {
  const guard = socketGuard(barrier);
  const sockets = new Set<Socket>();
  const connections = new Set<LaneConnection>();
  const laneParts: LaneParts = { ...parts, retired: (connection) => connections.delete(connection) };
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    guard(socket);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    connections.add(new LaneConnection(socket, laneParts));
  });
  return {
    server,
    closeAll() {
      for (const connection of connections) connection.destroy();
      connections.clear();
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
