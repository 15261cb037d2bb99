import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "../src/cli/Args.js";
import { root } from "./support.js";

/**
 * The README, run: every `bash` block (indented ones in lists too), in order, in one temporary
 * directory holding a copy of `examples/`, with the checkout's `mcb` on the PATH (`npx mcb`
 * resolves to the same file), then those of every document in docs/ (`DOCUMENTS`; their `ts`
 * blocks run in DocExamples.test.ts). Each block runs under `set -euo pipefail`:
 * every command must exit 0 (a block says `|| …` where a non-zero exit is the point). The two `sh`
 * blocks are the set-up commands CI itself runs (`.ci/run`); a `text` block is a transcript (its
 * `$ ` commands run and print exactly what follows them) or syntax (every `mcb` line parses, and
 * names a command mcb has); every JSON answer a block wrote is snake_case throughout.
 */
/** A document's fenced code blocks (indented ones in lists too, dedented), with their language and line. */
function blocksOf(file: string): { lang: string; body: string; line: number; file: string }[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)].map((m) => ({
    lang: m[2]!,
    body: m[3]!
      .split("\n")
      .map((l) => (l.startsWith(m[1]!) ? l.slice(m[1]!.length) : l))
      .join("\n"),
    line: text.slice(0, m.index).split("\n").length,
    file,
  }));
}
const blocks = blocksOf("README.md");
/**
 * The other documents, whose examples run after the README's, in this order, in the same
 * directory (a later one may use what an earlier one made). Every document in docs/ is listed.
 */
const DOCUMENTS = [
  "docs/CLI.md",
  "docs/RECIPES.md",
  "docs/SAVES.md",
  "docs/SERVERS.md",
  "docs/MCP.md",
  "docs/CHAT.md",
  "docs/SCHEMATICS.md",
  "docs/TERRAIN.md",
  "docs/CAMERA.md",
  "docs/ENGINE.md",
  "docs/LIBRARY.md",
  "docs/TESTING.md",
  "docs/CONTRIBUTING.md",
  "docs/DESIGN.md",
  "docs/PROTOCOL.md",
];
const docBlocks = DOCUMENTS.flatMap(blocksOf);
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
  it("labels every code block: bash runs, sh is set-up, text is syntax or a transcript, ts is an example file", () => {
    expect(
      readdirSync(join(root, "docs"))
        .map((f) => `docs/${f}`)
        .sort(),
    ).toEqual([...DOCUMENTS].sort());
    expect([...blocks, ...docBlocks].filter((b) => b.lang === "").map((b) => `${b.file} line ${b.line}`)).toEqual([]);
    expect(docBlocks.filter((b) => b.lang === "sh").map((b) => `${b.file} line ${b.line}`)).toEqual([]);
    const shell = blocks.filter((b) => b.lang === "sh").map((b) => b.body.trim());
    expect(shell).toEqual(["npm ci && npm run demo", "npm test"]);
    const ci = readFileSync(join(root, ".ci", "run"), "utf8");
    expect(ci).toMatch(/npm ci/);
    expect(ci).toMatch(/npm test/);
    expect(blocks.filter((b) => b.lang === "bash").length).toBeGreaterThanOrEqual(1);
    expect([...blocks, ...docBlocks].filter((b) => b.lang === "bash").length).toBeGreaterThanOrEqual(6);
  });

  it("every mcb line of a text block (syntax and examples for a server or a chat) names a command and options mcb has", () => {
    const usage = spawnSync(process.execPath, [join(root, "packages", "bridge", "dist", "bin.js"), "--help"], { encoding: "utf8" }).stdout;
    const commands = new Set([...usage.matchAll(/^ {2}mcb ([a-z]+)/gm)].map((m) => m[1]!));
    expect(commands.size).toBeGreaterThan(10);
    let checked = 0;
    for (const b of [...blocks, ...docBlocks].filter((x) => x.lang === "text" && !x.body.startsWith("$ "))) {
      for (const line of b.body.split("\n")) {
        const words = (line.replace(/\s+#.*$/, "").match(/"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, ""));
        const at = words.indexOf("mcb");
        if (at < 0 || (at > 0 && !/^(export|[A-Z_]+=)/.test(words[0]!))) continue;
        const args = words.slice(at + 1).filter((w) => w !== "|" && !/^<.*>$/.test(w));
        const parsed = parse(args);
        expect(parsed.ok ? null : parsed.problem, `${b.file} line ${b.line}: ${line}`).toBeNull();
        if (!parsed.ok) continue;
        if (parsed.positionals.length > 0) expect(commands.has(parsed.positionals[0]!), `${b.file} line ${b.line}: ${line}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("every bash block exits 0, in order, in a fresh directory; the JSON it writes is snake_case", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-readme-"));
    cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
    for (const b of [...blocks, ...docBlocks].filter((x) => x.lang === "bash")) {
      const r = spawnSync("bash", ["-c", `set -euo pipefail\n${b.body}`], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
      expect(r.status, `${b.file} line ${b.line}:\n${b.body}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`).toBe(0);
    }
    expect(docBlocks.filter((b) => b.lang === "bash").length).toBeGreaterThan(0);
    // Transcripts (`$ mcb …` and what it printed) in text blocks: run, they print exactly that.
    for (const b of [...blocks, ...docBlocks].filter((x) => x.lang === "text" && x.body.startsWith("$ "))) {
      for (const part of b.body.split(/^(?=\$ )/m)) {
        const [command, ...printed] = part.trimEnd().split("\n");
        const r = spawnSync("bash", ["-c", command!.slice(2)], { cwd: dir, env, encoding: "utf8" });
        expect(`${r.stdout}${r.stderr}`.trimEnd(), `${b.file} line ${b.line}: ${command}`).toBe(printed.join("\n"));
      }
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
