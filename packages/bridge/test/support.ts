import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { openWorkspace } from "../src/workspace/world/OpenWorkspace.js";
import type { Workspace } from "../src/workspace/world/Workspace.js";

const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const cli = join(root, "packages/bridge/dist/bin.js");
export const tower = join(root, "examples/tower.json");

/** Runs the `mcb` command line in this process, and reads the structured error a failed command printed (shared with the property tests, not through their index: it would load the bridge into every test that uses them). */
export { cliError as errorOf, mcb, type CliRun } from "../../../property-tests/src/interop/Cli.js";
import type { CliRun } from "../../../property-tests/src/interop/Cli.js";

/** Runs the built bin as its own process (for what only a process shows: the bin, signals). Never throws for a non-zero exit. */
export async function mcbProcess(...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: root, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Opens the embedded world in this process, failing the test on a refusal. */
export async function openWorld(stateDir: string): Promise<Workspace> {
  const opened = await openWorkspace(stateDir);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

/** A test file's temporary directories: `make()` creates one, each is removed after its test. */
export function tempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });
  return async () => {
    const d = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}

/**
 * A person's save in `dir`: the chunks around the origin (−1..1), as a game that generated them
 * leaves them (made the way mcb makes its own world, then used as a person's).
 */
export async function personSave(dir: string): Promise<string> {
  const w = await AnvilWorld.open({ dir, flatGround: true });
  await w.compareAndSet({
    checks: [],
    writes: [-1, 0, 1].flatMap((cx) =>
      [-1, 0, 1].map((cz) => ({ x: cx * 16 + 8, y: 64, z: cz * 16 + 8, before: "minecraft:air", beforeDigest: null, after: "minecraft:torch" })),
    ),
  });
  await w.close();
  return dir;
}
