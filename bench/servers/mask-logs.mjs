// Masking the canaries in a run folder's logs, alone, as the build under test does it after its
// processes ended: two corruption faults armed (a string and a number canary). Prints one JSON
// line: { wallMs, maxRssKb }.
// Usage: node mask-logs.mjs --dir <run folder> --run-id <run id>
import { flags } from "../lib/child-lifecycle.mjs";
import { fromDist } from "../lib/paths.mjs";
import { peakRssKb } from "../lib/peak-rss.mjs";

const options = flags();
const { CanaryBook } = await fromDist("faults/corruption/canary-book.js");
const { maskCanariesInLogs } = await fromDist("runtime/canary-masks.js");
const faults = ["wrong-note", "wrong-price"].map((id) => ({ id, type: "http_corrupt", sinks: ["stdout"] }));
const book = new CanaryBook(options["run-id"], faults, { emit: () => undefined });
book.arm("wrong-note", "string");
book.arm("wrong-price", "number");
const started = performance.now();
await maskCanariesInLogs(options.dir, book);
const wallMs = performance.now() - started;
process.stdout.write(`${JSON.stringify({ wallMs, maxRssKb: peakRssKb() })}\n`);
