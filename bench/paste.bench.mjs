// Big builds on the person's path (issue 45): `mcb schem import` of a 1,000,000-block Sponge file
// (a 100³ cube of four blocks in layers) into a new embedded save, as a process of its own:
// start, read the file, prepare and apply its tiles, name the part, save. Measured against the
// tree before issue 45 (BASELINE, a git worktree built in the same run), the two interleaved;
// medians of RUNS. Printed: end-to-end time and blocks/s, and peak memory (max RSS).
// Target (issue 45): ≥ 1,000,000 blocks/s end to end offline; peak RSS ≤ 400 MB.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSchematic } from "@mcb/schematic";
import { root, withBaselineTree } from "./baseline.mjs";

/** The last commit before issue 45's work; MCB_BENCH_BASE=<commit> measures against another. */
const BASELINE = process.env.MCB_BENCH_BASE ?? "9a88ea3";
const RUNS = 3;
const N = 100;
const BLOCKS = N * N * N;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function cube(file) {
  const palette = ["minecraft:stone_bricks", "minecraft:oak_planks", "minecraft:cobblestone", "minecraft:glass"];
  const blocks = new Uint8Array(BLOCKS);
  for (let y = 0; y < N; y++) blocks.fill((y >> 2) % 4, y * N * N, (y + 1) * N * N);
  writeFileSync(file, writeSchematic({ width: N, height: N, length: N, offset: { x: 0, y: 0, z: 0 }, dataVersion: 4903, palette, blocks, blockEntities: [] }));
}

/** One paste into a new state directory, in a process of its own (the tree's bench/export-peak.mjs runs `mcb` in-process). */
function paste(tree, file, state) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(tree, "bench", "export-peak.mjs"), "schem", "import", file, "--at", "0,-60,0", "--state", state, "--init"], {
    cwd: tree,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`paste in ${tree} failed: ${r.stderr.slice(-1500)}`);
  if (!/1000000 blocks written/.test(r.stdout)) throw new Error(`paste in ${tree} did not write every block: ${r.stdout.slice(-500)}`);
  return { ms, peakMiB: JSON.parse(r.stderr.trim().split("\n").pop()).peakMiB };
}

export function run() {
  return withBaselineTree(BASELINE, async (base) => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-bench-paste-"));
    try {
      const file = join(dir, "cube.schem");
      cube(file);
      let k = 0;
      const once = (tree) => paste(tree, file, join(dir, `state-${k++}`));
      (once(base), once(root)); // warm-up: disk caches
      const before = [],
        now = [];
      for (let i = 0; i < RUNS; i++) {
        before.push(once(base));
        now.push(once(root));
      }
      const b = median(before.map((m) => m.ms)),
        n = median(now.map((m) => m.ms));
      const rate = (ms) => `${((BLOCKS / ms) * 1000).toLocaleString("en-US", { maximumFractionDigits: 0 })} blocks/s`;
      const peakB = median(before.map((m) => m.peakMiB)),
        peakN = median(now.map((m) => m.peakMiB));
      console.log(`mcb schem import of a 100³ Sponge file (1,000,000 blocks) into a new embedded save, process end to end; before: ${BASELINE}`);
      console.log(`  now    ${n.toFixed(0).padStart(5)} ms  ${rate(n)}  peak ${peakN.toFixed(0)} MiB`);
      console.log(`  before ${b.toFixed(0).padStart(5)} ms  ${rate(b)}  peak ${peakB.toFixed(0)} MiB`);
      const speed = BLOCKS / (n / 1000);
      console.log(
        `  ratio ${(n / b).toFixed(2)}× the time; target ≥ 1,000,000 blocks/s ${speed >= 1e6 ? "met" : "MISSED"}; peak ≤ 400 MiB ${peakN <= 400 ? "met" : "MISSED"}`,
      );
      return speed >= 1e6 && peakN <= 400;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
