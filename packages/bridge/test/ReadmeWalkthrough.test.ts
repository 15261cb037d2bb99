import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

/**
 * The README, run: every `bash` block, in order, in one temporary directory holding a copy of
 * `examples/`, with the checkout's `mcb` on the PATH (`npx mcb` resolves to the same file). Each
 * block runs under `set -euo pipefail`: every command must exit 0 (a block says `|| …` where a
 * non-zero exit is the point). The two `sh` blocks are the set-up commands CI itself runs
 * (`.ci/run`); `text` blocks are syntax and transcripts; every JSON answer a block wrote is
 * snake_case throughout.
 */
const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
  lang: m[1]!,
  body: m[2]!,
  line: readme.slice(0, m.index).split("\n").length,
}));
const bin = join(root, "node_modules", ".bin");

function snakeCaseFaults(value: unknown, path = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => snakeCaseFaults(v, `${path}[${i}]`));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [
    // Keys that are data, not names: entity types, upgrade names, limits, package and variable names.
    ...(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(k) || /^(by_type|upgrades|limits|capabilities|packages|secrets)$/.test(path.split(".").at(-1) ?? "")
      ? []
      : [`${path}.${k}`]),
    ...snakeCaseFaults(v, `${path}.${k}`),
  ]);
}

describe("the README walk-through", () => {
  it("labels every code block: bash runs, sh is set-up, text is syntax or a transcript", () => {
    expect(blocks.filter((b) => b.lang === "").map((b) => b.line)).toEqual([]);
    const shell = blocks.filter((b) => b.lang === "sh").map((b) => b.body.trim());
    expect(shell).toEqual(["npm ci && npm run demo", "npm test"]);
    const ci = readFileSync(join(root, ".ci", "run"), "utf8");
    expect(ci).toMatch(/npm ci/);
    expect(ci).toMatch(/npm test/);
    expect(blocks.filter((b) => b.lang === "bash").length).toBeGreaterThanOrEqual(4);
  });

  it("every bash block exits 0, in order, in a fresh directory; the JSON it writes is snake_case", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-readme-"));
    cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
    for (const b of blocks.filter((x) => x.lang === "bash")) {
      const r = spawnSync("bash", ["-c", `set -euo pipefail\n${b.body}`], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
      expect(r.status, `README.md line ${b.line}:\n${b.body}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
    }
    for (const file of ["build.json", "doctor.json"]) expect(snakeCaseFaults(JSON.parse(readFileSync(join(dir, file), "utf8"))), file).toEqual([]);
    for (const args of [
      ["status"],
      ["inspect", "--", "-6", "64", "-6", "6", "70", "6"],
      ["schem", "info", "tower.schem"],
      ["terrain", "preview", "examples/terrain.json", "-o", "t.png"],
      ["part", "list"],
      ["camera", "list"],
    ]) {
      const r = spawnSync(
        "mcb",
        [...args.slice(0, args.indexOf("--") < 0 ? args.length : args.indexOf("--")), "--json", ...(args.includes("--") ? args.slice(args.indexOf("--")) : [])],
        { cwd: dir, env, encoding: "utf8" },
      );
      expect(r.status, `mcb ${args.join(" ")} --json: ${r.stderr}`).toBe(0);
      expect(snakeCaseFaults(JSON.parse(r.stdout)), `mcb ${args.join(" ")} --json`).toEqual([]);
    }
  }, 300_000);
});
