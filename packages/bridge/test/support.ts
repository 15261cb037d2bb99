import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { openEmbeddedWorld, type EmbeddedWorld } from "../src/EmbeddedWorld.js";

const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const cli = join(root, "packages/bridge/dist/cli.js");
export const tower = join(root, "examples/tower.json");

/** Runs the built CLI; never throws for a non-zero exit. */
export async function mcb(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd: root, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Opens the embedded world in this process, failing the test on a refusal. */
export async function openWorld(stateDir: string): Promise<EmbeddedWorld> {
  const opened = await openEmbeddedWorld(stateDir);
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
