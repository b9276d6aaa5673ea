// The package.json that `npm pack` ships, without the `prepare` script.
//
// `prepare` builds dist/ when the package is installed from its git repository (npm runs it in
// the clone before packing it). A tarball already holds dist/, and npm 11 warns about a
// `prepare` script when such a tarball is installed, so the packed manifest leaves it out:
// `prepack` runs `strip` (package.json is saved as package.json.packing and rewritten without
// the prepare, prepack and postpack scripts) and `postpack` runs `restore` (the saved file is put back). `strip` refuses to
// run over an earlier saved copy, so a pack that failed halfway never loses the original.
// package.json is never missing or partly written on the way (other processes may read it while a
// pack runs, the tests' module resolution among them): the original is copied aside, and the
// stripped manifest is written beside it and renamed over it.
import { constants, existsSync } from "node:fs";
import { copyFile, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

const root = process.cwd();
const manifest = join(root, "package.json");
const saved = join(root, "package.json.packing");

async function strip() {
  if (existsSync(saved)) {
    throw new Error(
      "package.json.packing exists: a pack was interrupted; run `node scripts/pack-manifest.mjs restore` first",
    );
  }
  const text = await readFile(manifest, "utf8");
  const data = JSON.parse(text);
  if (data.scripts === undefined) return;
  // The pack scripts themselves are of no use in a tarball either.
  for (const name of ["prepare", "prepack", "postpack"]) delete data.scripts[name];
  await copyFile(manifest, saved, constants.COPYFILE_EXCL);
  const stripped = join(root, "package.json.stripped");
  await writeFile(stripped, `${JSON.stringify(data, null, 2)}\n`);
  await rename(stripped, manifest);
}

async function restore() {
  if (existsSync(saved)) await rename(saved, manifest);
}

const command = process.argv[2];
if (command === "strip") await strip();
else if (command === "restore") await restore();
else {
  process.stderr.write("usage: node scripts/pack-manifest.mjs strip|restore\n");
  process.exit(2);
}
