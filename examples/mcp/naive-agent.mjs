#!/usr/bin/env node
// The naive notes agent: one client, no request timeout of its own (the SDK's default is 60 s),
// no retries, and it reads tool results without looking at `isError`. It prints fixed words
// and counts, never the notes. Exit 0 when it went through its steps, 1 on an exception.
import { connectNotes, resultText } from "./connect.mjs";

const client = await connectNotes("naive-notes-agent");
const titles = resultText(await client.callTool({ name: "list_notes", arguments: {} })).split("\n");
process.stdout.write(`list_notes: ${titles.length} titles\n`);
const hits = resultText(await client.callTool({ name: "search_notes", arguments: { query: "retry" } }));
process.stdout.write(`search_notes: ${hits === "" ? 0 : hits.split("\n").length} hits\n`);
const note = await client.callTool({ name: "read_note", arguments: { title: "retries" } });
process.stdout.write(`read_note: ${resultText(note).length} characters\n`);
await client.callTool({
  name: "add_note",
  arguments: {
    title: "summary",
    text: `Read ${titles.length} notes. ${process.env.NOTES_PRIVATE_TEXT ?? ""}`,
  },
});
process.stdout.write("add_note: done\n");
await client.close();
