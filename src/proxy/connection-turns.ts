import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { SyntheticResponse } from "../faults/types.js";
import { askWhetherListening } from "./listening-probe.js";
import { syntheticBytes } from "./responses.js";

interface Turn {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly run: () => void;
}

/** The requests of one connection waiting for their turn, and how the connection ends. */
interface Turns {
  /** The exchange that has the turn, or null. */
  current: Turn | null;
  readonly waiting: Turn[];
  /** The answer to a request Node's parser refused, sent once every earlier one is answered. */
  refusal: SyntheticResponse | null;
  refused: boolean;
}

const TURNS = Symbol("connection turns");
type TurnSocket = Socket & { [TURNS]?: Turns };

function turnsOf(socket: Socket): Turns {
  const own = socket as TurnSocket;
  let turns = own[TURNS];
  if (turns === undefined) {
    const created: Turns = { current: null, waiting: [], refusal: null, refused: false };
    own[TURNS] = turns = created;
    socket.once("end", () => workloadEnded(socket, created));
  }
  return turns;
}

/**
 * The workload shut its side (Node's server, half-open, answers what it sent, then ends the
 * connection). An exchange still awaiting its answer asks whether the workload still listens
 * (see `askWhetherListening`). An event stream being relayed ends here: the workload stopped
 * reading it. As the fast lane does.
 */
function workloadEnded(socket: Socket, turns: Turns): void {
  const current = turns.current;
  if (current === null || current.response.writableEnded) return;
  if (current.response.headersSent) socket.destroy();
  else if (current.request.complete && current.request.httpVersion === "1.1") askWhetherListening(socket);
}

/**
 * Runs `start` for a request of the full pipeline once every earlier request of its
 * connection is answered: one exchange at a time per connection, as the fast lane takes them
 * (pipelined requests are observed, forwarded and recorded in turn, never side by side).
 */
export function takeTurn(request: IncomingMessage, response: ServerResponse, start: () => void): void {
  const { socket } = request;
  const turns = turnsOf(socket);
  const turn: Turn = {
    request,
    response,
    run: () => {
      turns.current = turn;
      // The last answer's bytes are all queued on the socket: a refusal goes right after them,
      // before Node's server ends a connection whose workload shut its side.
      response.once("prefinish", () => {
        if (nothingWaits(turns)) refuse(socket, turns, response);
      });
      response.once("close", () => {
        turns.current = null;
        nextTurn(socket, turns);
      });
      start();
    },
  };
  if (turns.current !== null) turns.waiting.push(turn);
  else turn.run();
}

/**
 * Answers a request the connection's parser refused with `refusal`, after the answers to
 * every request before it, then ends the connection. A request whose body was still
 * arriving is the refused one (its bytes end in the error): it gets the refusal in its turn
 * and is never an operation.
 */
export function refuseAfterTurns(socket: Socket, refusal: SyntheticResponse): void {
  const turns = turnsOf(socket);
  if (turns.refusal !== null) return;
  turns.refusal = refusal;
  const { current } = turns;
  if (current === null) nextTurn(socket, turns);
  // Its body can never be whole: nothing of it was read, nothing recorded.
  else if (!current.request.complete) refuse(socket, turns, null);
  // An answer already complete is queued on the socket: the refusal can follow it now.
  else if (current.response.writableEnded && nothingWaits(turns)) refuse(socket, turns, current.response);
}

/** No request waits that is still to be answered (a refused one only awaits its refusal). */
function nothingWaits(turns: Turns): boolean {
  const { waiting } = turns;
  return (
    waiting.length === 0 ||
    (turns.refusal !== null && waiting.length === 1 && waiting[0]?.request.complete === false)
  );
}

function nextTurn(socket: Socket, turns: Turns): void {
  if (turns.current !== null) return;
  const next = turns.waiting.shift();
  if (socket.destroyed || !socket.writable) {
    turns.waiting.length = 0;
    return;
  }
  if (next === undefined || (turns.refusal !== null && !next.request.complete)) refuse(socket, turns, null);
  else next.run();
}

/** Sends the refusal, unless the answer it would follow (`after`) closes the connection. */
function refuse(socket: Socket, turns: Turns, after: ServerResponse | null): void {
  if (turns.refusal === null || turns.refused) return;
  turns.refused = true;
  turns.waiting.length = 0;
  if (socket.destroyed || !socket.writable || after?.shouldKeepAlive === false) return;
  socket.write(syntheticBytes(turns.refusal, false));
  socket.end();
}
