// npm run bench: performance targets of the project, each printed as a ratio against a baseline
// measured in the same run. Figures are medians of repeated runs after warm-up.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv[2];
const suites = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs") && (only === undefined || f.includes(only)))
  .sort();
let failed = 0;
for (const file of suites) {
  const mod = await import(new URL(file, import.meta.url).href);
  console.log(`\n## ${file}`);
  const ok = await mod.run();
  if (ok === false) failed++;
}
console.log(failed === 0 ? "\nall benchmark targets met" : `\n${failed} benchmark suite(s) missed a target`);
