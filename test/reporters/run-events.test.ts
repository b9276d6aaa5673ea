import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DIAGNOSTIC_LIMIT,
  EVIDENCE_ROW_LIMIT,
  renderRunFolder,
  renderRunReport,
} from "../../src/reporters/html/run-page.js";
import { LANE_LIMIT } from "../../src/reporters/html/timeline.js";
import { DETAIL_LIMIT } from "../../src/reporters/html/timeline-data.js";
import { readSavedEvents, readSavedReport } from "../../src/reporters/saved-run.js";
import { testFolder } from "../helpers/cli.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { writeBigRun } from "./big-run.js";
import { streamTakesAll, wholeLogPage } from "./whole-log-reading.js";

const FIXTURE_V4 = join(import.meta.dirname, "..", "fixtures", "runs", "v4-three-dependencies");
const dir = testFolder("each");

describe("the run page reads events.jsonl as a stream", () => {
  it("draws a run of at most DETAIL_LIMIT operations one by one, as the whole-log reading", async () => {
    await writeBigRun(dir.path, DETAIL_LIMIT);
    expect(streamTakesAll(await readSavedEvents(dir.path))).toBe(true);
    const page = await renderRunFolder(dir.path);
    expect(page).toBe(await wholeLogPage(dir.path));
    expect(page.match(/<rect id="op-/g)?.length).toBe(DETAIL_LIMIT);
    await writeBigRun(dir.path, DETAIL_LIMIT + 1);
    const buckets = await renderRunFolder(dir.path);
    expect(buckets).toBe(await wholeLogPage(dir.path));
    expect(buckets).not.toContain('<rect id="op-');
  });

  it("draws the schema-4 fixture as the whole-log reading", async () => {
    await cp(FIXTURE_V4, dir.path, { recursive: true });
    expect(streamTakesAll(await readSavedEvents(dir.path))).toBe(true);
    expect(await renderRunFolder(dir.path)).toBe(await wholeLogPage(dir.path));
  });

  it("reads a log the stream cannot draw (an operation observed twice, an event after an operation's end) whole", async () => {
    await writeBigRun(dir.path, 1000);
    const text = await readFile(join(dir.path, "events.jsonl"), "utf8");
    const run = legacyRunBuilder()
      .setup()
      .observed("op-1", "fp-x")
      .succeeded("op-1")
      .observed("op-1", "fp-y");
    const extra = run
      .events()
      .slice(-3)
      .map((event) => `${JSON.stringify(event)}\n`);
    await writeFile(join(dir.path, "events.jsonl"), `${text}${extra.join("")}`);
    expect(streamTakesAll(await readSavedEvents(dir.path))).toBe(false);
    expect(await renderRunFolder(dir.path)).toBe(await wholeLogPage(dir.path));

    const late = run.injected("op-2").events().at(-1);
    await writeFile(
      join(dir.path, "events.jsonl"),
      `${text}${extra[0]}${JSON.stringify(late).replace("op-2", "op-1")}\n`,
    );
    expect(streamTakesAll(await readSavedEvents(dir.path))).toBe(false);
    expect(await renderRunFolder(dir.path)).toBe(await wholeLogPage(dir.path));
  });

  it("skips torn and foreign lines, and reads a last line without its newline, as before", async () => {
    await writeBigRun(dir.path, 30);
    const lines = (await readFile(join(dir.path, "events.jsonl"), "utf8")).trimEnd().split("\n");
    const edited = [lines[0], "{not json", "[1,2]", "", ...lines.slice(1, -1), `${lines.at(-1)}`].join("\n");
    await writeFile(join(dir.path, "events.jsonl"), edited);
    const events = await readSavedEvents(dir.path);
    expect(events).toEqual(lines.map((line) => JSON.parse(line)));
  });
});

describe("the run page stays bounded", () => {
  it("shows the first evidence rows and diagnostics and says how many more report.json holds", async () => {
    await writeBigRun(dir.path, 50);
    const { report } = await readSavedReport(dir.path);
    if (report.schema_version !== 2) throw new Error("a schema-2 report was expected");
    const rows = Array.from({ length: EVIDENCE_ROW_LIMIT + 7 }, (_, index) => ({
      failed_operation_id: `op-${index}`,
      retry_operation_id: null,
      recovery_latency_ms: null,
    }));
    const diagnostics = Array.from({ length: DIAGNOSTIC_LIMIT + 3 }, (_, index) => `diagnostic ${index}`);
    // Drawn from the typed report as a run hands it over (more rows than any strict report of 50 operations holds).
    const page = await renderRunReport(dir.path, {
      ...report,
      recovery: { required: 0, successful: 0, evidence: rows },
      diagnostics,
    });
    const evidence = page.slice(page.indexOf('<section id="recovery">'));
    const shown = evidence.slice(0, evidence.indexOf("</section>"));
    expect(shown.match(/<tr><td/g)?.length).toBe(EVIDENCE_ROW_LIMIT);
    expect(page).toContain(
      `7 more evidence rows are left out here (the first ${EVIDENCE_ROW_LIMIT} are shown); report.json has them all.`,
    );
    expect(page.match(/<li>diagnostic /g)?.length).toBe(DIAGNOSTIC_LIMIT);
    expect(page).toContain(`3 more diagnostics are left out here (the first ${DIAGNOSTIC_LIMIT} are shown)`);
  });

  // Both sizes are above every drawing limit (DETAIL_LIMIT operations, the operations table's
  // limits): a page that grew with the run would differ between them.
  it("draws the same number of shapes for 3,000 operations as for 6,000", async () => {
    await writeBigRun(dir.path, 3000);
    const shapes = (page: string) => page.match(/<rect /g)?.length ?? 0;
    const smaller = shapes(await renderRunFolder(dir.path));
    await writeBigRun(dir.path, 6000);
    expect(shapes(await renderRunFolder(dir.path))).toBe(smaller);
  });

  it(`draws at most ${LANE_LIMIT} lanes and says how many operations the others hold`, async () => {
    await writeBigRun(dir.path, 10);
    const lines = Array.from({ length: LANE_LIMIT + 6 }, (_, index) => {
      const payload = { kind: "OPERATION_OBSERVED", operation_id: `x-${index}`, dependency: `lane-${index}` };
      return `${JSON.stringify({ type: "OPERATION_OBSERVED", elapsed_ms: index, payload })}\n`;
    });
    await writeFile(join(dir.path, "events.jsonl"), lines.join(""));
    // The run's own lane ("dependency") comes first: lane-63 to lane-69 are left out.
    const page = await renderRunFolder(dir.path);
    expect(page).toBe(await wholeLogPage(dir.path));
    expect(page.match(/<g class="lane" data-lane=/g)?.length).toBe(LANE_LIMIT);
    expect(page).toContain(
      `7 more lanes with 7 operations are left out (at most ${LANE_LIMIT} lanes are drawn).`,
    );
  });
});
