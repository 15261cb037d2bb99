import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcb, root, tower } from "../support.js";
import { describe, expect, it } from "vitest";
import { compileRecipeFile } from "../../src/workspace/jobs/RecipeFiles.js";

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
    await writeFile(
      bad,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 0, y: 0, z: 0 }, max: { x: 1, y: 1, z: 1 }, block: "minecraft:stone[nope=1]" }] }),
    );
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

describe("docs/RECIPES.md", () => {
  it("its example recipe compiles", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(join(root, "docs/RECIPES.md"), "utf8");
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

describe("usage errors name the mistake (in process)", () => {
  it("an unknown command suggests the near one; then the list of commands, not the whole usage", async () => {
    const r = await mcb("biuld", "x.json");
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toBe('mcb: unknown command "biuld" (did you mean "build"?)');
    expect(lines).toHaveLength(2);
    expect((await mcb("frobnicate")).stderr.split("\n")[0]).toBe('mcb: unknown command "frobnicate"');
    expect((await mcb()).stderr.split("\n")[0]).toBe("mcb: missing a command");
  });

  it("a missing option or argument is said first, then only that command's usage", async () => {
    const r = await mcb("camera", "capture", "front");
    expect(r.code).toBe(2);
    const [first, second, ...rest] = r.stderr.trim().split("\n");
    expect([first, second]).toEqual(["mcb camera: capture: missing -o <out.png>", "usage:"]);
    expect(rest.every((l) => !/^ {2}mcb (?!camera)/.test(l))).toBe(true);
    expect(rest.some((l) => l.startsWith("  mcb camera capture"))).toBe(true);
    expect((await mcb("build")).stderr.split("\n")[0]).toBe("mcb build: missing the recipe file");
    expect((await mcb("build", "a.json", "b.json")).stderr.split("\n")[0]).toBe("mcb build: expected one recipe file, got 2 arguments");
    expect((await mcb("schem", "import", "x.schem")).stderr.split("\n")[0]).toBe("mcb schem: import: missing --at x,y,z");
    expect((await mcb("build", "a.json", "--replace", "1,2")).stderr.split("\n")[0]).toBe('mcb build: --replace takes a position x,y,z, not "1,2"');
    const option = await mcb("status", "--stat", "x");
    expect([option.code, option.stderr.split("\n")[0]]).toEqual([2, "mcb status: unknown option --stat (did you mean --state?)"]);
  });

  it("--journal: a PostgreSQL URL without a password, for a server world only; nothing is opened otherwise", async () => {
    const first = async (...args: string[]) => {
      const r = await mcb(...args);
      return [r.code, r.stderr.split("\n")[0]];
    };
    expect(await first("status", "--journal", "postgres://mcb:secret@127.0.0.1:5432/w", "--world", "port://127.0.0.1:1")).toEqual([
      2,
      "mcb status: --journal must not carry a password (every user of the machine can read a command line): set PGPASSWORD instead",
    ]);
    expect(await first("status", "--journal", "postgres://mcb@127.0.0.1:5432/w")).toEqual([
      2,
      "mcb status: --journal (a journal shared by several bridges) needs --world port://…: a save on disk, the embedded world included, has one writer",
    ]);
    expect(await first("status", "--journal", "/tmp/j.db", "--world", "port://127.0.0.1:1")).toEqual([
      2,
      "mcb status: --journal must be a postgres://user@host:port/database URL",
    ]);
  });

  it("--help prints the usage on stdout: all of it, or one command's", async () => {
    const all = await mcb("--help");
    expect(all.code).toBe(0);
    for (const name of ["recipe", "build", "undo", "status", "inspect", "recovery", "edit", "part", "schem", "terrain", "camera", "mcp", "chat", "doctor"])
      expect(all.stdout).toContain(`  mcb ${name}`);
    const one = await mcb("edit", "--help");
    expect(one.code).toBe(0);
    expect(
      one.stdout
        .split("\n")
        .filter((l) => l.startsWith("  mcb "))
        .every((l) => l.startsWith("  mcb edit")),
    ).toBe(true);
  });

  it("a mistyped --state is not_found with the path and a hint, and makes nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcb-nostate-"));
    const missing = join(dir, "typo");
    for (const args of [
      ["status"],
      ["inspect", "0", "0", "0", "1", "1", "1"],
      ["undo", "op_x"],
      ["part", "list"],
      ["camera", "list"],
      ["edit", "0", "64", "0", "stone"],
    ]) {
      const r = await mcb(...args, "--state", missing);
      expect(r.code, args.join(" ")).toBe(1);
      expect(JSON.parse(r.stderr).error).toMatchObject({ code: "not_found", details: { reason: "state_missing", path: missing } });
      expect(JSON.parse(r.stderr).error.message).toMatch(/mcb build .* creates it.*--init/);
    }
    expect((await import("node:fs")).existsSync(missing)).toBe(false);
    const init = await mcb("status", "--state", missing, "--init");
    expect([init.code, init.stderr.trim()]).toEqual([0, `mcb: a new state directory (world and journal) in ${missing}`]);
    expect(init.stdout).toContain(`state directory ${missing}`);
  });
});

describe("negative numbers are coordinates, not options", () => {
  it("inspect, camera save and schem export take them without --, and give what -- gives", async () => {
    const state = join(await mkdtemp(join(tmpdir(), "mcb-neg-")), "state");
    expect((await mcb("build", tower, "--state", state)).code).toBe(0);
    const bare = await mcb("inspect", "-6", "64", "-6", "6", "70", "6", "--state", state, "--json");
    const dashed = await mcb("inspect", "--state", state, "--json", "--", "-6", "64", "-6", "6", "70", "6");
    expect([bare.code, bare.stderr]).toEqual([0, ""]);
    const { observed_at: _a, ...bareView } = JSON.parse(bare.stdout) as Record<string, unknown>;
    const { observed_at: _b, ...dashedView } = JSON.parse(dashed.stdout) as Record<string, unknown>;
    expect(bareView).toEqual(dashedView);
    expect(JSON.parse(bare.stdout).region).toEqual({ min: { x: -6, y: 64, z: -6 }, max: { x: 6, y: 70, z: 6 } });
    expect((await mcb("camera", "save", "front", "3.5", "66", "-20", "0", "-10", "--state", state)).code).toBe(0);
    const cams = JSON.parse((await mcb("camera", "list", "--state", state, "--json")).stdout) as { camera_id: string; pose: { z: number; pitch: number } }[];
    expect(cams.find((c) => c.camera_id === "front")?.pose).toMatchObject({ z: -20, pitch: -10 });
    const exported = await mcb("schem", "export", "t", "-6", "64", "-6", "6", "66", "6", "--state", state, "--json");
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ asset_id: "t", width: 13, height: 3, length: 13 });
    // A negative number where an option's value is expected is that value, and a misspelt option is still an option.
    expect((await mcb("inspect", "-6", "64", "-6", "6", "70", "6", "--stat", state)).stderr.split("\n")[0]).toBe(
      "mcb inspect: unknown option --stat (did you mean --state?)",
    );
  });
});

describe("the mcb bin (its own process)", () => {
  it("is on node_modules/.bin after npm ci, answers --help and names a mistake", async () => {
    const bin = join(root, "node_modules/.bin/mcb");
    const { execFile } = await import("node:child_process");
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(bin, args, { cwd: root }, (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number((error as { code?: number }).code), stdout, stderr }),
        );
      });
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage:\n {2}mcb recipe compile/);
    const typo = await run(["biuld"]);
    expect([typo.code, typo.stderr.split("\n")[0]]).toEqual([2, 'mcb: unknown command "biuld" (did you mean "build"?)']);
  });

  it("is a committed launcher (npm links it before the first build) that says when the command is not built", async () => {
    const { readlinkSync, copyFileSync, mkdirSync } = await import("node:fs");
    expect(readlinkSync(join(root, "node_modules/.bin/mcb"))).toBe("../@mcb/bridge/bin/mcb.js");
    // The same launcher in a package without dist/: a clear message, exit 1.
    const pkg = await mkdtemp(join(tmpdir(), "mcb-unbuilt-"));
    mkdirSync(join(pkg, "bin"));
    copyFileSync(join(root, "packages/bridge/bin/mcb.js"), join(pkg, "bin/mcb.js"));
    await writeFile(join(pkg, "package.json"), JSON.stringify({ type: "module" }));
    const { spawnSync } = await import("node:child_process");
    const r = spawnSync(process.execPath, [join(pkg, "bin/mcb.js"), "--help"], { encoding: "utf8" });
    expect([r.status, r.stdout, r.stderr]).toEqual([1, "", "mcb: the command is not built yet: run `npm run build` in the mcb repository first\n"]);
  });
});
