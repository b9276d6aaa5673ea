/** The shim's one way of writing a line: the source waits while the destination is full. */
import type { Readable, Writable } from "node:stream";

const waitingForDrain = new WeakSet<Writable>();

/**
 * Writes a line; when the destination is full, the source pauses until it drains. `written`
 * is called once the destination has taken the line, or at once when it is closed.
 */
export function writeWithBackpressure(
  destination: Writable,
  line: Buffer,
  source: Readable,
  written: () => void,
): void {
  if (destination.destroyed || destination.writableEnded) {
    written();
    return;
  }
  // `written` takes no arguments: a write error is the stream's own "error" event.
  if (destination.write(line, written) || waitingForDrain.has(destination)) return;
  waitingForDrain.add(destination);
  source.pause();
  destination.once("drain", () => {
    waitingForDrain.delete(destination);
    source.resume();
  });
}
