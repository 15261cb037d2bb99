// A git worktree of an earlier commit, built in the same run, for benchmarks that measure a change
// against the tree before it (the same machine, the same moment).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

/** A worktree of `commit` with its own @mcb links and a compiled dist; `why` says what failed (dir null: no worktree). */
export function baselineTree(commit) {
  const dir = mkdtempSync(join(tmpdir(), "mcb-baseline-"));
  const add = spawnSync("git", ["worktree", "add", "--detach", dir, commit], { cwd: root, encoding: "utf8" });
  if (add.status !== 0) return { dir: null, why: add.stderr.trim() };
  const nm = join(dir, "node_modules");
  mkdirSync(join(nm, "@mcb"), { recursive: true });
  for (const entry of readdirSync(join(root, "node_modules"))) if (entry !== "@mcb") symlinkSync(join(root, "node_modules", entry), join(nm, entry));
  for (const pkg of readdirSync(join(dir, "packages"))) symlinkSync(join(dir, "packages", pkg), join(nm, "@mcb", pkg));
  if (existsSync(join(dir, "property-tests"))) symlinkSync(join(dir, "property-tests"), join(nm, "@mcb", "property-tests"));
  const build = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-b"], { cwd: dir, encoding: "utf8" });
  if (build.status !== 0) return { dir, why: `baseline build failed: ${build.stdout}${build.stderr}`.slice(0, 800) };
  return { dir, why: null };
}

/** Removes a worktree made by `baselineTree`. */
export function removeTree(dir) {
  if (dir === null) return;
  spawnSync("git", ["worktree", "remove", "--force", dir], { cwd: root });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Runs `measure(dir)` with a built worktree of `commit` and removes it afterwards; false (and why,
 * printed) when the tree cannot be made.
 */
export async function withBaselineTree(commit, measure) {
  const base = baselineTree(commit);
  try {
    if (base.why !== null) {
      console.log(`baseline tree ${commit} unavailable: ${base.why}`);
      return false;
    }
    return await measure(base.dir);
  } finally {
    removeTree(base.dir);
  }
}
