// Issue 31 targets: builds through the live world port (engine → PortWorld → loopback HTTP →
// port-minestom, a real Minecraft 26.2 server at its default 5 ms tick budget, SQLite journal) go
// at ≥ 500,000 blocks/s for 100,000 and 1,000,000 blocks, with no server tick over 50 ms and a p99
// of at most 10 ms during the build. Baseline in the same run: the tree before issue 31 (a git
// worktree built here, its own host jar), so each figure is printed next to the one it replaces.
// Every tree runs in a process of its own (port-workload.mjs).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineTree, removeTree, root } from "./baseline.mjs";

/** The last commit before issue 31 (one 512-block JSON slice per call, saves on the game thread); MCB_BENCH_BASE=<commit> measures against another. */
const BASELINE = process.env.MCB_BENCH_BASE ?? "f755393";
const RUNS = 5;
const TARGET_RATE = 500_000;
const TARGET_MAX_MS = 50;
const TARGET_P99_MS = 10;
const workload = fileURLToPath(new URL("port-workload.mjs", import.meta.url));
const JAVA_HOME = process.env.JAVA_HOME_25 ?? "/usr/lib/jvm/temurin-25-jdk-amd64";

function buildHost(dir) {
  const r = spawnSync("mvn", ["-B", "-q", "-o", "package", "-DskipTests", "-f", join(dir, "java", "pom.xml")], {
    encoding: "utf8",
    env: { ...process.env, JAVA_HOME, PATH: `${JAVA_HOME}/bin:${process.env.PATH}`, MAVEN_OPTS: "--sun-misc-unsafe-memory-access=allow" },
  });
  return r.status === 0 ? null : `maven: ${(r.stdout + r.stderr).slice(-800)}`;
}

function measure(tree) {
  const r = spawnSync(process.execPath, [workload, tree, String(RUNS)], { cwd: tree, encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`workload in ${tree} failed: ${r.stderr.slice(-1500)}`);
  return JSON.parse(r.stdout);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (blocks, ms) => Math.round(blocks / (ms / 1000));
const fmt = (n) => n.toLocaleString("en-US");

export async function run() {
  if (!existsSync(join(root, "java/port-minestom/target/mcb-port-minestom.jar")))
    execFileSync("bash", ["java/build.sh", "-DskipTests"], { cwd: root, stdio: "inherit" });
  const base = baselineTree(BASELINE);
  try {
    const why = base.why ?? buildHost(base.dir);
    if (why !== null) {
      console.log(`baseline tree ${BASELINE} unavailable: ${why}`);
      return false;
    }
    const before = measure(base.dir);
    const now = measure(root);
    const rows = [
      ["100,000 blocks", 100_000, median(now.small.ms), median(before.small.ms), now.small, before.small],
      ["1,000,000 blocks", 1_000_000, now.big.ms, before.big.ms, now.big, before.big],
    ];
    console.log(`builds through the live world port (5 ms tick budget, SQLite journal); 100,000: median of ${RUNS} after two warm-ups; before: ${BASELINE}`);
    console.log(`(ticks: every tick of the series of builds, preparing included)`);
    let ok = true;
    for (const [label, blocks, n, b, t, bt] of rows) {
      const metRate = rate(blocks, n) >= TARGET_RATE,
        metMax = t.max <= TARGET_MAX_MS,
        metP99 = t.p99 <= TARGET_P99_MS;
      ok &&= metRate && metMax && metP99;
      const ticks = (x) =>
        `${String(x.ticks).padStart(4)} ticks, max ${x.max.toFixed(1).padStart(5)} ms, p99 ${x.p99.toFixed(1).padStart(5)} ms, mean ${x.mean.toFixed(2)} ms`;
      console.log(`  ${label.padEnd(17)} now    ${n.toFixed(0).padStart(6)} ms ${fmt(rate(blocks, n)).padStart(9)} blocks/s; ${ticks(t)}`);
      console.log(
        `  ${"".padEnd(17)} before ${b.toFixed(0).padStart(6)} ms ${fmt(rate(blocks, b)).padStart(9)} blocks/s; ${ticks(bt)}   speed ${(b / n).toFixed(2)}× the build before`,
      );
      console.log(
        `  ${"".padEnd(17)} target ≥ ${fmt(TARGET_RATE)} blocks/s ${metRate ? "met" : "MISSED"}; tick max ≤ ${TARGET_MAX_MS} ms ${metMax ? "met" : "MISSED"}; p99 ≤ ${TARGET_P99_MS} ms ${metP99 ? "met" : "MISSED"}`,
      );
    }
    return ok;
  } finally {
    removeTree(base.dir);
  }
}
