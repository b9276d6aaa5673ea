/**
 * `node:os` as the MCP stdio shim's own executable sees it (tsdown.config.ts puts this module in
 * its place): the shim reads only the signal numbers, when its server is ended by a signal, so
 * the real module is loaded then, with the CommonJS file's own `module.require`, and not at
 * every start (docs/mcp.md#cost). Only what the shim uses is here; a build that needs more fails.
 */
import type * as NodeOs from "node:os";

export const constants = {
  get signals(): typeof NodeOs.constants.signals {
    return (module.require("node:os") as typeof NodeOs).constants.signals;
  },
};
