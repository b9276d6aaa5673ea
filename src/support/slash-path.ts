import { relative } from "node:path";

/** `to` relative to `from`, with `/` between its parts on every platform, as the files Agent Chaos writes name paths. */
export function slashRelative(from: string, to: string): string {
  return relative(from, to).split("\\").join("/");
}
