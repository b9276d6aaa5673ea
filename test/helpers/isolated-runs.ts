/**
 * Checks that the runs of one process (trials, explore, a suite) kept apart: each its own proxy,
 * recorder, dependency, workload, folder and fault state. Written for the bundled
 * steady_agent.yaml, which starts its dependency on {port} and injects one 503 on the second
 * request its proxy sees: a fault state shared between runs would fire in one run and not in the
 * others, a shared recorder would mix run ids and sequence numbers, a shared proxy would mix
 * operations.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { groupAlive } from "../../src/support/process-group.js";

interface RecordedEvent {
  readonly run_id: string;
  readonly sequence: number;
  readonly type: string;
  readonly payload: Record<string, unknown>;
}

async function eventsOf(runFolder: string): Promise<RecordedEvent[]> {
  const text = await readFile(join(runFolder, "events.jsonl"), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RecordedEvent);
}

const payloadsOf = (events: readonly RecordedEvent[], type: string) =>
  events.filter((event) => event.type === type).map((event) => event.payload);

export async function expectIsolatedRuns(folder: string, runFolders: readonly string[]): Promise<void> {
  const seen = { runIds: new Set<string>(), proxies: new Set<unknown>(), upstreams: new Set<unknown>() };
  const pids: number[] = [];
  for (const runFolder of runFolders) {
    const absolute = join(folder, runFolder);
    const events = await eventsOf(absolute);
    const runId = events[0]?.run_id as string;
    // Its own recorder: one run id (its folder's name), sequence numbers 1..n without a gap.
    expect(absolute.endsWith(runId)).toBe(true);
    expect(new Set(events.map((event) => event.run_id))).toEqual(new Set([runId]));
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1));
    expect(events.at(-1)?.type).toBe("RUN_COMPLETED");
    seen.runIds.add(runId);
    // Its own dependency and proxy.
    const [started] = payloadsOf(events, "DEPENDENCY_STARTED");
    const [injector] = payloadsOf(events, "INJECTOR_STARTED");
    seen.upstreams.add(started?.base_url);
    seen.proxies.add(injector?.proxy_url);
    pids.push(started?.pid as number, payloadsOf(events, "WORKLOAD_STARTED")[0]?.pid as number);
    // Its own traffic and its own fault state: the agent's three requests (load, refresh,
    // retry of the refresh), the 503 on the second of them, exactly once.
    expect(payloadsOf(events, "OPERATION_OBSERVED")).toHaveLength(3);
    expect(payloadsOf(events, "FAULT_INJECTED")).toHaveLength(1);
    const report = JSON.parse(await readFile(join(absolute, "report.json"), "utf8"));
    expect(report).toMatchObject({ run_id: runId, result: "RECOVERED" });
    expect(await readFile(join(absolute, "stdout.log"), "utf8")).toBe(
      "Loaded customer 123\nAttempt 1 failed: HTTPStatusError\nRefreshed customer 123 on attempt 2\n",
    );
  }
  expect(seen.runIds.size).toBe(runFolders.length);
  expect(seen.proxies.size).toBe(runFolders.length);
  expect(seen.upstreams.size).toBe(runFolders.length);
  // Every process of every run has ended.
  for (const pid of pids) expect(groupAlive(pid)).toBe(false);
}
