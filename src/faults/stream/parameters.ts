import type { CutSpec } from "./cut-point.js";

/** The cut key a mid-stream fault configured, as `FAULT_INJECTED.parameters` records it. */
export function cutParameters(spec: CutSpec): Record<string, number> {
  return spec.afterEvents !== null
    ? { after_events: spec.afterEvents }
    : { after_bytes: spec.afterBytes ?? 0 };
}
