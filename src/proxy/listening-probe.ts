import type { Socket } from "node:net";

/** An interim answer: every HTTP/1.1 client accepts any number of them before its answer. */
const CONTINUE = Buffer.from("HTTP/1.1 100 Continue\r\n\r\n", "latin1");

const ASKED = Symbol("asked whether the workload still listens");
type AskedSocket = Socket & { [ASKED]?: true };

/**
 * A workload shut its side while its request awaits the answer (nothing of it sent yet): a
 * half-close (it still listens, HTTP/1.0 style) or a workload that gave up and closed its
 * connection, which TCP alone cannot tell apart. The proxy asks with two interim
 * `100 Continue` answers, each its own write: a workload that is gone answers the first with
 * a reset, which the second meets (on the loopback the reset is back before the next write),
 * so the connection fails and the operation is recorded as the workload leaving. One that
 * listens reads both, then its answer. Asked once per connection, whichever path asks (the
 * fast lane may hand the connection over afterwards).
 */
export function askWhetherListening(socket: Socket): void {
  const own = socket as AskedSocket;
  if (own[ASKED] === true) return;
  own[ASKED] = true;
  socket.write(CONTINUE);
  socket.write(CONTINUE);
}
