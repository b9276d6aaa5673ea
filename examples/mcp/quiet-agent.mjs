#!/usr/bin/env node
// The quiet notes agent: it gives up on a tool call after QUIET_DEADLINE_MS (default 1000) by
// racing the call against a timer of its own, then calls again. The SDK request itself keeps a
// long timeout and no AbortSignal, so the server is never told the first call was abandoned
// (no notifications/cancelled). Prints fixed words and counts. Exit 0 done, 1 gave up.
import { connectNotes, resultText } from "./connect.mjs";

const deadline = Number(process.env.QUIET_DEADLINE_MS ?? 1000);
const client = await connectNotes("quiet-notes-agent");

async function callTool(name, args) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    let timer;
    const late = new Promise((resolve) => {
      timer = setTimeout(() => resolve(null), deadline);
    });
    const call = client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
    call.catch(() => {});
    const result = await Promise.race([call, late]);
    clearTimeout(timer);
    if (result !== null && result.isError !== true) return resultText(result);
    process.stdout.write(`${name}: attempt ${attempt} gave no answer, calling again\n`);
  }
  process.stdout.write(`${name}: giving up\n`);
  process.exit(1);
}

const titles = (await callTool("list_notes", {})).split("\n");
process.stdout.write(`list_notes: ${titles.length} titles\n`);
const note = await callTool("read_note", { title: "retries" });
process.stdout.write(`read_note: ${note.length} characters\n`);
process.exit(0);
