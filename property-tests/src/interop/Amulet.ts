import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const SCRIPT = join(ROOT, "property-tests", "python", "amulet_probe.py");

/** The Python with amulet-core (`MCB_AMULET_PYTHON`, or `.venv/bin/python` made by `npm test`'s setup). */
export function amuletPython(): string {
  const p = process.env.MCB_AMULET_PYTHON ?? join(ROOT, ".venv", "bin", "python");
  if (!existsSync(p)) throw new Error(`no Python with amulet-core at ${p}: run bash property-tests/python/setup.sh (npm test does)`);
  return p;
}

/** Runs the amulet probe (`read`, `raw` or `write`) on a save with JSON input; resolves its JSON answer. */
export function amulet<T>(mode: "read" | "raw" | "write", save: string, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = execFile(amuletPython(), [SCRIPT, mode, save], { maxBuffer: 64 << 20, timeout: 120_000 }, (err, stdout, stderr) => {
      if (err !== null) reject(new Error(`amulet ${mode} failed: ${err.message}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(stdout) as T);
    });
    child.stdin!.end(JSON.stringify(input));
  });
}
