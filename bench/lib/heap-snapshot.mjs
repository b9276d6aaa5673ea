// Summarises a V8 .heapsnapshot (as `--heapsnapshot-signal` writes it): live objects grouped by
// constructor (or node type), with count and self size, largest first. The snapshot holds only
// what is reachable, so this is what lives, not what was allocated.
import { readFile } from "node:fs/promises";
import { round } from "./stats.mjs";

export async function summariseHeapSnapshot(path, top = 30) {
  const snapshot = JSON.parse(await readFile(path, "utf8"));
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    total += size;
    const name = type === "object" || type === "closure" ? strings[nodes[i + nameAt]] : `(${type})`;
    const key = `${name}`;
    const group = groups.get(key) ?? { name: key, count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += size;
    groups.set(key, group);
  }
  const rows = [...groups.values()].sort((a, b) => b.bytes - a.bytes).slice(0, top);
  return {
    totalMb: round(total / 1024 / 1024, 1),
    groups: rows.map((group) => ({ ...group, kb: round(group.bytes / 1024, 1) })),
  };
}

/** Self bytes of a sampled allocation profile (`--heap-prof`) by function, largest first. */
export async function summariseAllocations(path) {
  const profile = JSON.parse(await readFile(path, "utf8"));
  const bytes = new Map();
  const visit = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const self = (node.selfSize ?? 0) + 0;
    const name = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(dist|node_modules)\//, "$1/")}:${lineNumber + 1}`;
    if (self > 0) bytes.set(name, (bytes.get(name) ?? 0) + self);
    for (const child of node.children ?? []) visit(child);
  };
  visit(profile.head);
  return [...bytes].map(([name, total]) => ({ name, bytes: total })).sort((a, b) => b.bytes - a.bytes);
}
