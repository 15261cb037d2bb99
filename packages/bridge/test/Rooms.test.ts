import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));
const FRONT_ENDS = ["cli", "mcp", "chat"];
/** The root: the library surface, the executable, and the composition root that joins the rooms into `mcb`. */
const ROOT_FILES = ["index.ts", "bin.ts", "Composition.ts"];

/** Every .ts file under `dir`, as paths relative to it. */
function files(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, base) : name.endsWith(".ts") ? [relative(base, p)] : [];
  });
}

/** The room of a source path: its first folder, or "root". */
function roomOf(path: string): string {
  const parts = path.split("/");
  return parts.length === 1 ? "root" : parts[0]!;
}

/**
 * The rules of the bridge's rooms, over (file, source) pairs: cli/, mcp/ and chat/ import
 * workspace/ (and packages), never each other; workspace/ imports none of them; only index.ts and
 * bin.ts stay at the root (the composition root). Returns the violations.
 */
export function roomViolations(sources: readonly { readonly file: string; readonly text: string }[]): string[] {
  const out: string[] = [];
  for (const { file, text } of sources) {
    const from = roomOf(file);
    if (from === "root" && !ROOT_FILES.includes(file)) out.push(`${file}: only ${ROOT_FILES.join(", ")} stay at the root`);
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = relative(SRC, resolve(SRC, dirname(file), m[1]!));
      const to = roomOf(target);
      if (to === from || to === "root") {
        if (to === "root" && from !== "root") out.push(`${file} imports ${target}: rooms do not import the composition root`);
        continue;
      }
      if (from === "workspace" && FRONT_ENDS.includes(to)) out.push(`${file} imports ${target}: workspace imports no front end`);
      if (FRONT_ENDS.includes(from) && FRONT_ENDS.includes(to)) out.push(`${file} imports ${target}: ${from}/ never imports ${to}/`);
    }
  }
  return out;
}

describe("the bridge's rooms", () => {
  it("cli/, mcp/ and chat/ import workspace/, never each other; workspace/ imports none of them", () => {
    const sources = files(SRC).map((file) => ({ file, text: readFileSync(join(SRC, file), "utf8") }));
    expect(sources.length).toBeGreaterThan(60);
    expect(new Set(sources.map((s) => roomOf(s.file)))).toEqual(new Set(["root", "workspace", "cli", "mcp", "chat"]));
    expect(roomViolations(sources)).toEqual([]);
  });

  it("the check catches a front end importing another, workspace importing a front end, and a stray root file", () => {
    expect(
      roomViolations([
        { file: "chat/ChatBridge.ts", text: 'import { createMcbMcpServer } from "../mcp/McbMcpServer.js";' },
        { file: "workspace/Batch.ts", text: 'import { progressBar } from "../cli/Format.js";' },
        { file: "cli/Main.ts", text: 'import type { Workspace } from "../workspace/Workspace.js";\nimport { main } from "../index.js";' },
        { file: "Helpers.ts", text: "" },
      ]),
    ).toEqual([
      "chat/ChatBridge.ts imports mcp/McbMcpServer.js: chat/ never imports mcp/",
      "workspace/Batch.ts imports cli/Format.js: workspace imports no front end",
      "cli/Main.ts imports index.js: rooms do not import the composition root",
      "Helpers.ts: only index.ts, bin.ts, Composition.ts stay at the root",
    ]);
  });
});
