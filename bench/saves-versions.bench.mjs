// Issue 30: per-version registries, older and newer saves read-only, the 26.2 default. Target:
// save throughput unchanged within 10%: apply (1,000,000 blocks into a new save, flushed), a cold
// read (2,097,152 positions) and a real 1.21.1 region read through the save, each against the tree
// before issue 30 (BASELINE, a git worktree built in the same run). Every measurement is its own
// process (saves-workload.mjs), the two trees interleaved; medians of RUNS each after a warm-up.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { root, withBaselineTree } from "./baseline.mjs";

/** The last commit before issue 30 (26.1 only, saves older or newer refused); MCB_BENCH_BASE=<commit> measures against another. */
const BASELINE = process.env.MCB_BENCH_BASE ?? "76312a3";
const RUNS = 5;
const TARGET = 1.1;
const workload = fileURLToPath(new URL("saves-workload.mjs", import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(tree) {
  const r = spawnSync(process.execPath, [workload, tree], { cwd: tree, encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`workload in ${tree} failed: ${r.stderr.slice(-1500)}`);
  return JSON.parse(r.stdout);
}

export function run() {
  return withBaselineTree(BASELINE, async (dir) => {
    (measure(dir), measure(root)); // warm-up (disk caches, JIT of the tools)
    const before = [],
      now = [];
    for (let i = 0; i < RUNS; i++) {
      before.push(measure(dir));
      now.push(measure(root));
    }
    let ok = true;
    const rows = [
      ["apply 1,000,000 blocks into a new save, flushed", "apply", (ms) => `${(1_000_000 / ms / 1000).toFixed(2)}M blocks/s`],
      ["cold read of 2,097,152 positions from a reopened save", "read", (ms) => `${(2_097_152 / ms / 1000).toFixed(1)}M positions/s`],
      ["read a real 1.21.1 region's full chunks (384 sections)", "real", (ms) => `${(384 / (ms / 1000)).toFixed(0)} sections/s`],
    ];
    console.log(`before: ${before[0].version} registry (${BASELINE}); now: ${now[0].version} registry`);
    for (const [label, key, rate] of rows) {
      const b = median(before.map((m) => m[key])),
        n = median(now.map((m) => m[key]));
      const ratio = n / b;
      const met = ratio <= TARGET;
      ok &&= met;
      console.log(
        `${label.padEnd(56)} now ${n.toFixed(0).padStart(5)} ms (${rate(n)})  before ${b.toFixed(0).padStart(5)} ms  ratio ${ratio.toFixed(2)}×  target ≤ ${TARGET}× ${met ? "met" : "MISSED"}`,
      );
    }
    if (before[0].real_sections !== now[0].real_sections) {
      console.log(`the real region read ${now[0].real_sections} sections now, ${before[0].real_sections} before`);
      ok = false;
    }
    return ok;
  });
}
