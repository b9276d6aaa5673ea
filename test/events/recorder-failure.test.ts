import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Recorder } from "../../src/events/recorder.js";

describe.runIf(existsSync("/dev/full"))("a recorder whose writes fail (disk full)", () => {
  it("never throws into the code that emits, and reports the error once, after the emit", async () => {
    const recorder = new Recorder("/dev/full", "20261129T183821Z-1a2b3c4d");
    const reported: string[] = [];
    recorder.onWriteError((code) => reported.push(code));
    const event = recorder.emit({ kind: "RUN_STARTED", scenario_name: "full" });
    expect(event.sequence).toBe(1);
    expect(reported).toEqual([]);
    recorder.emit({ kind: "RUN_ERROR", reason_code: "INTERNAL_ERROR", message: "x" });
    await Promise.resolve();
    expect(reported).toEqual(["ENOSPC"]);
    expect(recorder.writeError).toBe("ENOSPC");
    recorder.close();
  });
});
