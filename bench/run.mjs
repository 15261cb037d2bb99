// npm run bench: performance targets of the project, each printed as a ratio against a baseline
// measured in the same run. Figures are medians of repeated runs after warm-up. Each suite runs
// in a process of its own, so the peak memory (max RSS) printed after it is that suite's.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));

if (process.argv[2] === "--one") {
  const file = process.argv[3];
  const mod = await import(new URL(file, import.meta.url).href);
  console.log(`\n## ${file}`);
  const ok = await mod.run();
  console.log(`peak memory of this suite (max RSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  process.exit(ok === false ? 1 : 0);
}

const only = process.argv[2];
const suites = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs") && (only === undefined || f.includes(only)))
  .sort();
let failed = 0;
for (const file of suites) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--one", file], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
console.log(failed === 0 ? "\nall benchmark targets met" : `\n${failed} benchmark suite(s) missed a target`);
process.exit(failed === 0 ? 0 : 1);
