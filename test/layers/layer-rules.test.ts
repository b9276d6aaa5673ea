import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The layer rules of .dependency-cruiser.mjs, run by the real `depcruise` on a small source tree
 * with one module per layer (the project's own tree is checked by `npm run lint:layers`).
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const configPath = join(root, ".dependency-cruiser.mjs");
const depcruise = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const { LAYERS } = (await import(pathToFileURL(configPath).href)) as { LAYERS: readonly string[] };

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

let tree: string;

beforeAll(async () => {
  tree = await mkdtemp(join(tmpdir(), "layers-"));
  const compilerOptions = { module: "nodenext", moduleResolution: "nodenext", strict: true };
  await writeFile(join(tree, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
});

afterAll(async () => {
  await rm(tree, { recursive: true, force: true });
});

/** The one module of a layer: the layer's file itself, or a module in its folder. */
function moduleOf(layer: string): string {
  return layer.endsWith(".ts") ? `src/${layer}` : `src/${layer}/module.ts`;
}

/** Writes `path` (relative to the tree) importing each of `imports` by a relative specifier. */
async function writeModule(path: string, imports: readonly string[]): Promise<void> {
  const lines = imports.map((target, index) => {
    const specifier = relative(dirname(path), target).replace(/\.ts$/, ".js");
    return `import * as m${index} from "${specifier.startsWith(".") ? specifier : `./${specifier}`}";`;
  });
  const uses = imports.map((_, index) => `m${index}`).join(", ");
  await mkdir(join(tree, dirname(path)), { recursive: true });
  await writeFile(join(tree, path), `${lines.join("\n")}\nexport const uses = [${uses}];\n`);
}

/** Runs depcruise with the project's configuration on the tree; returns the violations. */
async function cruise(): Promise<Violation[]> {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [depcruise, "src", "--config", configPath, "--output-type", "json"],
      { cwd: tree, maxBuffer: 16 * 1024 * 1024 },
      // Violations make depcruise exit non-zero; the JSON on stdout is the answer either way.
      (error, out) => (out === "" && error !== null ? reject(error) : resolve(out)),
    );
  });
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const LOWEST = LAYERS[LAYERS.length - 1] as string;
const HIGHEST = LAYERS[0] as string;

/**
 * One tree for both rule families, cruised once: every layer's module imports its sibling and
 * the module of every other layer, and a module outside every layer imports the lowest layer and
 * is imported by the highest.
 */
async function writeTree(): Promise<void> {
  for (const layer of LAYERS) {
    const own = layer.endsWith(".ts") ? [] : [`src/${layer}/sibling.ts`];
    if (own.length > 0) await writeModule(`src/${layer}/sibling.ts`, []);
    const others = LAYERS.filter((other) => other !== layer).map(moduleOf);
    const unlisted = layer === HIGHEST ? ["src/unlisted/module.ts"] : [];
    await writeModule(moduleOf(layer), [...own, ...others, ...unlisted]);
  }
  await writeModule("src/unlisted/module.ts", [moduleOf(LOWEST)]);
}

let cruised: Promise<string[]> | null = null;

/** The violations of the tree, as `rule: from -> to`. */
function violations(): Promise<string[]> {
  cruised ??= writeTree()
    .then(cruise)
    .then((found) =>
      found.map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`),
    );
  return cruised;
}

const isLayerRule = (violation: string): boolean => violation.startsWith("layer-");

describe("layer rules", () => {
  it("let a layer import its own layer and those below, and report each import of a layer above", async () => {
    const expected: string[] = [];
    for (const [position, layer] of LAYERS.entries()) {
      for (const target of LAYERS.slice(0, position)) {
        expected.push(`layer-${layer}: ${moduleOf(layer)} -> ${moduleOf(target)}`);
      }
    }
    const found = (await violations()).filter(isLayerRule);
    expect(found.sort()).toEqual(expected.sort());
    expect(found).toHaveLength((LAYERS.length * (LAYERS.length - 1)) / 2);
  });

  it("report a module outside every layer, whether it imports or is imported", async () => {
    const found = (await violations()).filter((violation) => !isLayerRule(violation));
    expect(found.sort()).toEqual([
      `import-of-no-layer: ${moduleOf(HIGHEST)} -> src/unlisted/module.ts`,
      `no-layer: src/unlisted/module.ts -> ${moduleOf(LOWEST)}`,
    ]);
  });
});
