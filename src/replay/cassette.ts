/**
 * Cassettes: recorded upstream answers that a dependency is served from (docs/replay.md).
 * The one entry point for the rest of the code; what each piece does:
 *
 * - `readCassette(path, shown, owner)` → `{ header, interactions }`: reads and checks a file
 *   (bounded memory, linear); throws `CassetteError` (`CASSETTE_MISSING`, or
 *   `CASSETTE_INVALID` naming the file and line).
 * - `CassetteBuilder({ dependency, protocol, match, appendTo })`: `.salt` to hash request
 *   shapes with, `.add(interaction)` in answer order, `.write(path)` once at the end (atomic);
 *   `.recorded` counts what this run added.
 * - `ReplayMatcher(cassette)`: `.next(keyFields)` → the interaction that answers a request (per
 *   key in order, the last one again when used up) or null; `.nearest(method, path, body)` →
 *   the JSON Pointers where the body differs from the closest recorded request.
 * - `requestShape(body, salt, ignore)`, `keptResponseHeaders(headers)`, `redactJsonText`,
 *   `redactEventText`: how an exchange becomes an `Interaction` without any request value.
 * - `EventSplitter`: a recorded event stream into its events and their offsets.
 * - `replayKey(match, fields)` and the `Interaction` / `CassetteHeader` types (format.ts).
 *
 * A request's key fields are the proxy's operation identity (method, decoded path, query hash,
 * identity body hash): the transport that serves a dependency computes them and asks.
 */
export { CassetteError, type CassetteErrorCode } from "./errors.js";
export { EventSplitter } from "./event-splitter.js";
export {
  CASSETTE_VERSION,
  type CassetteHeader,
  cassetteText,
  type Interaction,
  type RecordedEvent,
  type RequestKeyFields,
  replayKey,
} from "./format.js";
export { type NearestRequest, ReplayMatcher } from "./matcher.js";
export { type Cassette, type CassetteOwner, readCassette } from "./reader.js";
export { REDACTED, redactEventText, redactJsonText } from "./redact.js";
export { differingPointers, requestShape } from "./request-shape.js";
export { keptResponseHeader, keptResponseHeaders } from "./response-headers.js";
export { CassetteBuilder, type CassetteRecording } from "./writer.js";
