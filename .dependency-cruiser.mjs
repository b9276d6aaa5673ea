/**
 * The import layers of src/ (`npm run lint:layers`, part of `npm test`). LAYERS is the only place
 * the direction is written: top first, each a folder (or a file) directly under src/. A module
 * may import modules of its own layer and of any layer listed after it; every rule below is
 * derived from the list. See docs/architecture.md.
 */
export const LAYERS = [
  "bin",
  "cli",
  "index.ts",
  "library",
  "explore",
  "suite",
  "trials",
  "runtime",
  "terminal",
  "mcp",
  "proxy",
  "replay",
  "faults",
  "reporters",
  "report",
  "analysis",
  "checks",
  "triggers",
  "events",
  "fake-llm",
  "scenario",
  "types",
  "support",
];

/** The paths of a layer: the folder and everything in it, or the one file. */
function layerPath(layer) {
  return `^src/${layer.replaceAll(".", "\\.")}($|/)`;
}

const upwardImports = LAYERS.slice(1).map((layer, position) => {
  const above = LAYERS.slice(0, position + 1);
  return {
    name: `layer-${layer}`,
    comment: `src/${layer} may not import a layer above it (${above.join(", ")})`,
    severity: "error",
    from: { path: layerPath(layer) },
    to: { path: above.map(layerPath) },
  };
});

const outsideLayers = [
  {
    name: "no-layer",
    comment: "every module under src/ belongs to a layer: add its folder to LAYERS",
    severity: "error",
    from: { path: "^src/", pathNot: LAYERS.map(layerPath) },
    to: {},
  },
  {
    name: "import-of-no-layer",
    comment: "every module under src/ belongs to a layer: add its folder to LAYERS",
    severity: "error",
    from: {},
    to: { path: "^src/", pathNot: LAYERS.map(layerPath) },
  },
];

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [...upwardImports, ...outsideLayers],
  options: {
    includeOnly: "^src/",
    // Type-only imports count: a layer may not even name a type from a layer above it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
