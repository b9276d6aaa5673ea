#!/usr/bin/env node
// The resilient notes agent: every tool call has a deadline (NOTES_TIMEOUT_MS, default 1000;
// the SDK cancels a late request with notifications/cancelled), tool errors and JSON-RPC errors
// are retried (NOTES_ATTEMPTS, default 3), and a closed transport is reconnected before the
// retry. With AGENTCHAOS_LLM_URL set it also asks a model (OpenAI Chat Completions shape) to
// plan and to summarise, retrying 5xx answers and transport errors. NOTES_DEADLINE=signal sets
// the deadline as an AbortSignal (AbortSignal.timeout) instead of the SDK's `timeout` option:
// the SDK cancels the request with notifications/cancelled either way.
// Prints fixed words and counts, never notes or arguments. Exit 0 done, 1 gave up.
import { request } from "../http-client.mjs";
import { connectNotes, resultText } from "./connect.mjs";

const timeout = Number(process.env.NOTES_TIMEOUT_MS ?? 1000);
const attempts = Number(process.env.NOTES_ATTEMPTS ?? 3);
const bySignal = process.env.NOTES_DEADLINE === "signal";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let client = null;
let closed = true;

async function connected() {
  if (client === null || closed) {
    if (client !== null) process.stdout.write("transport closed: reconnecting\n");
    await client?.close().catch(() => {});
    closed = false;
    const fresh = await connectNotes("resilient-notes-agent", () => {
      if (client === fresh) closed = true;
    });
    client = fresh;
  }
  return client;
}

async function callTool(name, args) {
  for (let attempt = 1; ; attempt++) {
    let problem;
    try {
      const deadline = bySignal ? { signal: AbortSignal.timeout(timeout) } : { timeout };
      const result = await (await connected()).callTool({ name, arguments: args }, undefined, deadline);
      if (result.isError !== true) return resultText(result);
      problem = "tool error";
    } catch (error) {
      const late = error?.code === -32001 || error?.name === "TimeoutError";
      problem = late ? "timed out" : closed ? "transport closed" : "request failed";
    }
    if (attempt >= attempts) {
      process.stdout.write(`${name}: giving up after ${attempt} attempts (${problem})\n`);
      process.exit(1);
    }
    process.stdout.write(`${name}: attempt ${attempt} failed (${problem}), retrying\n`);
    await sleep(100);
  }
}

async function askModel(question) {
  const base = process.env.AGENTCHAOS_LLM_URL;
  if (!base) return;
  for (let attempt = 1; ; attempt++) {
    let problem;
    try {
      const response = await request(`${base.replace(/\/+$/, "")}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: question }] }),
        timeoutMs: timeout * 2,
      });
      if (response.ok) {
        response.json();
        process.stdout.write("model: answered\n");
        return;
      }
      problem = `status ${response.status}`;
    } catch {
      problem = "transport error";
    }
    if (attempt >= attempts) {
      process.stdout.write(`model: giving up after ${attempt} attempts (${problem})\n`);
      process.exit(1);
    }
    process.stdout.write(`model: attempt ${attempt} failed (${problem}), retrying\n`);
    await sleep(100);
  }
}

await askModel("Which note should I read about retries?");
const titles = (await callTool("list_notes", {})).split("\n");
process.stdout.write(`list_notes: ${titles.length} titles\n`);
const hits = await callTool("search_notes", { query: "retry" });
process.stdout.write(`search_notes: ${hits === "" ? 0 : hits.split("\n").length} hits\n`);
const note = await callTool("read_note", { title: "retries" });
process.stdout.write(`read_note: ${note.length} characters\n`);
await askModel("Summarise the note in one line.");
await callTool("add_note", {
  title: "summary",
  text: `Read ${titles.length} notes. ${process.env.NOTES_PRIVATE_TEXT ?? ""}`,
});
process.stdout.write("add_note: done\n");
await client?.close();
