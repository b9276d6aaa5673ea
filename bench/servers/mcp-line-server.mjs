// The MCP server of the relay measurements, on stdio: each line is parsed as a JSON-RPC request.
// `tools/call` `upload` is answered with the size of the line it came in; `download` with one
// text content of `arguments.bytes` bytes. Lines are read in linear time, as a real server should.
import { MIB, payload, readLines } from "../lib/big-message.mjs";

process.stdin.on("error", () => {});
process.stdin.on("end", () => process.exit(0));
readLines(process.stdin, (line) => {
  const request = JSON.parse(line.toString("utf8"));
  const { name, arguments: args } = request.params;
  const id = JSON.stringify(request.id);
  if (name === "upload") {
    const result = { content: [{ type: "text", text: String(line.length) }] };
    process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result)}}\n`);
    return;
  }
  const text = payload(Math.min(args.bytes, 256 * MIB));
  process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
  process.stdout.write(text);
  process.stdout.write('"}]}}\n');
});
