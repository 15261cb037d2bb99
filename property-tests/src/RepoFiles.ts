import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The repository's files under `dir` (a folder or one file) whose names match, built and installed folders aside. */
export function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  if (statSync(dir).isFile()) return pattern.test(dir) ? [dir] : [];
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist" || name === "target" || name === "target-26.1.2") return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p, pattern) : pattern.test(name) ? [p] : [];
  });
}
