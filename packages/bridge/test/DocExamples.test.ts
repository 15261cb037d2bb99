import { cpSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { root } from "./support.js";

/**
 * The TypeScript examples of the docs: every `ts` block of README.md and docs/*.md is one of
 * `examples/*.ts`, whole (tsc type-checks those with the tests: tsconfig.test.json), and each file
 * runs here as a program would, in a fresh directory holding a copy of `examples/`, printing what
 * its comments say it prints.
 */
const documents = ["README.md", ...readdirSync(join(root, "docs")).map((f) => `docs/${f}`)];
const examples = new Map(
  readdirSync(join(root, "examples"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => [f, readFileSync(join(root, "examples", f), "utf8")] as const),
);

describe("the docs' TypeScript examples", () => {
  it("every ts block is an example file, whole, and every example file is shown in a document", () => {
    const shown = new Set<string>();
    for (const doc of documents) {
      const text = readFileSync(join(root, doc), "utf8");
      for (const m of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
        const file = [...examples].find(([, body]) => body === m[1])?.[0];
        expect(file, `${doc} line ${text.slice(0, m.index).split("\n").length}: a ts block that is no examples/*.ts file as it stands`).toBeDefined();
        shown.add(file!);
      }
    }
    expect([...shown].sort()).toEqual([...examples.keys()].sort());
  });

  const cwd = process.cwd();
  afterEach(() => {
    process.chdir(cwd);
    vi.restoreAllMocks();
  });

  /** Runs an example in a fresh directory; what it printed, line by line. */
  async function run(file: string): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), "mcb-example-"));
    cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true });
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation(
      (...args: unknown[]) => void printed.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")),
    );
    process.chdir(dir);
    await import(pathToFileURL(join(root, "examples", file)).href);
    return printed;
  }

  it("engine.ts builds the tower into a new save and says applied", async () => {
    const out = await run("engine.ts");
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^applied: [1-9]\d* blocks written$/);
  });

  it("library.ts finds materials, compiles the tower and compiles it again to the same hash", async () => {
    const out = await run("library.ts");
    expect(out[0]).toContain('"query":"spruce trapdoor"');
    expect(out[1]).toContain("minecraft:spruce_trapdoor");
    expect(out[2]).toContain('"plan_hash"');
    expect(out.at(-1)).toBe("true");
  });

  it("mcp-server.ts lists the tools in memory and project_context answers", async () => {
    const out = await run("mcp-server.ts");
    expect(out[0]).toMatch(/^\d+ tools: .*build_prepare/);
    expect(out[1]).toBe("project_context answered");
  });

  it("chat-bridge.ts answers a player's /ai status through its own chat source", async () => {
    const out = await run("chat-bridge.ts");
    expect(out.length).toBeGreaterThan(0);
    expect(out.every((l) => l.startsWith("to 00000000-0000-0000-0000-000000000001: "))).toBe(true);
  }, 60_000);
});
