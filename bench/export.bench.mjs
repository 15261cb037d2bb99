// Exports of any size (issue 42), on the person's path: `mcb schem export` as a process of its
// own (start, open the save, read it slab by slab, write the library's v3 file and a v2 copy), on
// a save of the game's own chunks (prismarine-provider-anvil's 1.19.4 fixture restamped as 26.2:
// 144 full chunks). Baseline in the same run: `mcb status` on the same save and state (start and
// open, nothing read). Printed: time and peak memory (max RSS) of exports of 0.4M, 1.5M and 14.2M
// positions. Memory holds the decoded chunks under the region's footprint (a Sponge file is written
// layer by layer, and every layer crosses them all) and a constant; the blocks stream to disk.
// Target: the same footprint four times as tall (4× the positions) costs at most 1.5× the memory.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { realSave } from "@mcb/property-tests";
import { row } from "./timing.mjs";

const peakScript = fileURLToPath(new URL("./export-peak.mjs", import.meta.url));

/** One `mcb` run in a process of its own: wall time and peak memory. */
function mcb(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [peakScript, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`mcb ${args.join(" ")} failed: ${r.stderr.slice(-800)}`);
  const peakMiB = JSON.parse(r.stderr.trim().split("\n").pop()).peakMiB;
  return { ms, peakMiB, stdout: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "mcb-bench-export-"));
  try {
    const { save } = realSave(join(dir, "save"), [{ version: "1.19.4", from: 3337 }], 4903, "26.2");
    const world = ["--world", `save:${save}`, "--state", join(dir, "state"), "--init"];
    mcb(["status", ...world]);
    const cases = [
      { name: "0.4M", box: ["0", "-64", "0", "63", "31", "63"], positions: 64 * 96 * 64 },
      { name: "1.5M", box: ["0", "-64", "0", "63", "319", "63"], positions: 64 * 384 * 64 },
      { name: "14.2M", box: ["0", "-64", "0", "191", "319", "191"], positions: 192 * 384 * 192 },
    ];
    const base = { ms: [], peak: [] };
    const results = new Map(cases.map((c) => [c.name, { ms: [], peak: [], bytes: 0 }]));
    for (let round = 0; round < 3; round++) {
      const s = mcb(["status", ...world]);
      base.ms.push(s.ms);
      base.peak.push(s.peakMiB);
      for (const c of cases) {
        const out = join(dir, `${c.name}-${round}.schem`);
        const r = mcb(["schem", "export", `e${c.name.replace(".", "_")}_${round}`, ...c.box, "-o", out, "--sponge-version", "2", ...world, "--json"]);
        const res = results.get(c.name);
        res.ms.push(r.ms);
        res.peak.push(r.peakMiB);
        res.bytes = statSync(out).size;
      }
    }
    const baseMs = median(base.ms),
      basePeak = median(base.peak);
    console.log(`baseline: mcb status on the same save: ${baseMs.toFixed(0)} ms, peak ${basePeak.toFixed(0)} MiB`);
    const over = {};
    for (const c of cases) {
      const r = results.get(c.name);
      const ms = median(r.ms),
        peak = median(r.peak);
      over[c.name] = Math.max(1, peak - basePeak);
      row(`mcb schem export ${c.name} positions (v3 + v2 copy), process end to end`, ms, baseMs);
      console.log(
        `  ${(((c.positions / (ms - baseMs)) * 1000) / 1e6).toFixed(2)} M positions/s after start-up; v2 file ${(r.bytes / 1024).toFixed(0)} KiB; peak ${peak.toFixed(0)} MiB (+${(peak - basePeak).toFixed(0)} over the baseline)`,
      );
    }
    const ratio = over["1.5M"] / over["0.4M"];
    console.log(
      `peak memory over the baseline, 64×384×64 vs 64×96×64 (4× the positions): ${over["1.5M"].toFixed(0)} vs ${over["0.4M"].toFixed(0)} MiB, ratio ${ratio.toFixed(2)}× ${ratio <= 1.5 ? "target ≤1.5× met" : "target ≤1.5× MISSED"}`,
    );
    return ratio <= 1.5;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
