/** The run page as the whole-log reading draws it, to compare the streaming reading with. */
import { RunEventsStream, runEventsOf } from "../../src/reporters/html/run-events.js";
import { runModel } from "../../src/reporters/html/run-model.js";
import { renderRunPage, runLogs } from "../../src/reporters/html/run-page.js";
import { readSavedEvents, readSavedReport } from "../../src/reporters/saved-run.js";

type SavedEvents = Awaited<ReturnType<typeof readSavedEvents>>;

/** The page with every event in memory, then the model (`events`: the folder's, when read already). */
export async function wholeLogPage(folder: string, events?: SavedEvents): Promise<string> {
  const { report } = await readSavedReport(folder);
  return renderRunPage(
    runModel(report, runEventsOf(events ?? (await readSavedEvents(folder)))),
    await runLogs(folder, report),
  );
}

/** Whether the streaming reading takes every one of the events. */
export function streamTakesAll(events: SavedEvents): boolean {
  const stream = new RunEventsStream();
  return events.every((event) => stream.push(event));
}
