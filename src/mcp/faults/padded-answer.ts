import { randomUUID } from "node:crypto";
import { isJsonObject, parseJson } from "../../support/json-text.js";

const PAD_BYTE = 0x78; // "x"

/**
 * `mcp_oversized`'s answer (docs/mcp.md): the server's response `text` with the first text
 * content of its result padded with "x" so that the whole message is `sizeBytes` bytes (a result
 * without a text content gets one). A message already that long is only re-serialized. Returns
 * null when `text` holds no result (an error answer passes unchanged).
 *
 * Linear in the answer's size: the message is serialized once around a marker, and the padded
 * message is written into one buffer of its final size, `suffix` (a line end) included.
 */
export function paddedAnswer(text: string, sizeBytes: number, suffix = ""): Buffer | null {
  const parsed = parseJson(text);
  if (!isJsonObject(parsed) || !isJsonObject(parsed.result)) return null;
  const result = parsed.result;
  if (!Array.isArray(result.content)) result.content = [];
  const content = result.content as unknown[];
  let item = content.find(
    (candidate): candidate is { type: "text"; text: string } =>
      isJsonObject(candidate) && candidate.type === "text" && typeof candidate.text === "string",
  );
  if (item === undefined) {
    item = { type: "text", text: "" };
    content.push(item);
  }
  const marker = `agentchaos-padding-${randomUUID()}`;
  item.text += marker;
  const serialized = JSON.stringify(parsed);
  const at = serialized.lastIndexOf(marker);
  const head = Buffer.from(serialized.slice(0, at), "utf8");
  const tail = Buffer.from(serialized.slice(at + marker.length) + suffix, "utf8");
  const suffixBytes = Buffer.byteLength(suffix, "utf8");
  const pad = Math.max(0, sizeBytes - head.length - (tail.length - suffixBytes));
  const out = Buffer.allocUnsafe(head.length + pad + tail.length);
  head.copy(out, 0);
  out.fill(PAD_BYTE, head.length, head.length + pad);
  tail.copy(out, head.length + pad);
  return out;
}
