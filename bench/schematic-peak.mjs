// Child process of schematic.bench.mjs: decodes one file with one reader ("none": only loads the
// modules and the file) and prints, as JSON, the process's peak resident memory (max RSS).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createBlockRegistry } from "@mcb/blocks";
import { readSchematic } from "@mcb/schematic";
import { Schematic as Nucleation } from "nucleation";

const require = createRequire(import.meta.url);
const { Schematic: Prismarine } = require("prismarine-schematic");
const [reader, path] = process.argv.slice(2);
const bytes = readFileSync(path);
const registry = createBlockRegistry();
if (!registry.ok) throw new Error(registry.error.message);
let ok = true;
if (reader === "mcb") ok = readSchematic(registry.value, bytes, { drop: ["entities", "biomes"] }).ok;
else if (reader === "nucleation") Nucleation.fromData(Array.from(bytes));
else if (reader === "prismarine") {
  const log = console.log;
  console.log = () => undefined;
  await Prismarine.read(bytes).catch(() => (ok = false));
  console.log = log;
} else if (reader !== "none") throw new Error(`unknown reader ${reader}`);
console.log(JSON.stringify({ ok, peakMiB: (process.resourceUsage().maxRSS * 1024) / 2 ** 20 }));
