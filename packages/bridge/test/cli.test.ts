import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcb, root, tower } from "./support.js";
import { describe, expect, it } from "vitest";
import { compileRecipeFile } from "../src/index.js";

describe("mcb recipe compile (built CLI)", () => {
  it("prints count, bounds, palette counts and hash", async () => {
    const { code, stdout } = await mcb("recipe", "compile", tower);
    expect(code).toBe(0);
    const expected = await compileRecipeFile(tower);
    if (!expected.ok) throw new Error(expected.error.message);
    expect(stdout).toContain(`plan_hash      ${expected.value.plan_hash}`);
    expect(stdout).toContain(`changed_blocks ${expected.value.changed_blocks}`);
    expect(stdout).toContain("bounds         (-6, 64, -6) .. (6, 80, 6)  13×17×13");
    for (const p of expected.value.palette) expect(stdout).toMatch(new RegExp(`\\b${p.count}  ${p.state.replace(/[[\]]/g, "\\$&")}`));
  });

  it("--json prints the summary object", async () => {
    const { code, stdout } = await mcb("recipe", "compile", tower, "--json");
    expect(code).toBe(0);
    const expected = await compileRecipeFile(tower);
    expect(JSON.parse(stdout)).toEqual(expected.ok ? expected.value : null);
  });

  it("exits 1 with a structured error for bad recipes and files, 2 for usage", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcb-cli-"));
    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 0, z: 0 }, max: { x: 1, y: 1, z: 1 }, block: "minecraft:stone[nope=1]" }] }));
    const r1 = await mcb("recipe", "compile", bad);
    expect(r1.code).toBe(1);
    expect(JSON.parse(r1.stderr).error).toMatchObject({ code: "unsupported_block", details: { reason: "unknown_property", path: "operations[0].block" } });
    const notJson = join(dir, "x.json");
    await writeFile(notJson, "{");
    expect(JSON.parse((await mcb("recipe", "compile", notJson)).stderr).error.details.reason).toBe("not_json");
    const big = join(dir, "big.json");
    await writeFile(big, " ".repeat(1_048_577));
    expect(JSON.parse((await mcb("recipe", "compile", big)).stderr).error.details.reason).toBe("too_large");
    expect(JSON.parse((await mcb("recipe", "compile", join(dir, "missing.json"))).stderr).error.details.reason).toBe("unreadable");
    expect(JSON.parse((await mcb("recipe", "compile", dir)).stderr).error.details.reason).toBe("not_a_file");
    expect((await mcb("recipe")).code).toBe(2);
    expect((await mcb("recipe", "compile", tower, "--bogus")).code).toBe(2);
    const version = await mcb("recipe", "compile", tower, "--mc-version", "0.0");
    expect(JSON.parse(version.stderr).error.code).toBe("version_mismatch");
  });
});

describe("README", () => {
  it("its example recipe compiles", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(join(root, "README.md"), "utf8");
    const json = /```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(json).toBeDefined();
    const dir = await mkdtemp(join(tmpdir(), "mcb-readme-"));
    const file = join(dir, "readme.json");
    await writeFile(file, json!);
    const result = await compileRecipeFile(file);
    expect(result.ok ? result.value.changed_blocks : result.error).toBeGreaterThan(100);
    expect(result.ok && result.value.filtered_blocks).toBe(25);
  });
});
