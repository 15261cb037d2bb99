import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach } from "vitest";
import { main } from "../src/index.js";
import { openWorkspace } from "../src/workspace/world/OpenWorkspace.js";
import type { Workspace } from "../src/workspace/world/Workspace.js";

const run = promisify(execFile);
export const root = fileURLToPath(new URL("../../../", import.meta.url));
export const cli = join(root, "packages/bridge/dist/bin.js");
export const tower = join(root, "examples/tower.json");

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the `mcb` command line in this process (`main(argv, io)`), capturing what it writes. */
export async function mcb(...args: string[]): Promise<CliRun> {
  let stdout = "",
    stderr = "";
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: process.env });
  return { code, stdout, stderr };
}

/** The structured error a failed command printed (the last line of its stderr). */
export function errorOf(r: CliRun): { code: string; message: string; retryable: boolean; details?: Record<string, unknown> } {
  const last = r.stderr.trim().split("\n").at(-1) ?? "";
  return (JSON.parse(last) as { error: ReturnType<typeof errorOf> }).error;
}

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
