import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSchematic, type Schematic } from "@mcb/schematic";
import { cli, mcb, root, tempDirs } from "../support.js";

const stateDir = tempDirs("mcb-edits-");

const v = (x: number, y: number, z: number) => ({ x, y, z });
/** A 7×7 hollow tower of `floors` floors of 4 levels from y = 64, with a floor slab every 4 levels. */
function tower(floors: number): unknown {
  return {
    version: 1,
    operations: [
      { type: "box", min: v(0, 64, 0), max: v(6, 63 + floors * 4, 6), block: "minecraft:stone_bricks", hollow: true },
      {
        type: "repeat",
        count: floors,
        offset: v(0, 4, 0),
        operations: [{ type: "box", min: v(1, 64, 1), max: v(5, 64, 5), block: "minecraft:spruce_planks" }],
      },
    ],
  };
}
const WINDOW = { x: 3, y: 66, z: 0 };
/** The window as the game places it in the wall: joined to the stone bricks east and west of it. */
const PANE = "minecraft:glass_pane[east=true,north=false,south=false,waterlogged=false,west=true]";

function recipeFile(dir: string, name: string, recipe: unknown): string {
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify(recipe));
  return f;
}

async function stateAt(state: string, p: { x: number; y: number; z: number }): Promise<string> {
  const r = await mcb("inspect", "--state", state, "--json", String(p.x), String(p.y), String(p.z), String(p.x), String(p.y), String(p.z));
  return (JSON.parse(r.stdout) as { palette: { state: string }[] }).palette[0]!.state;
}

describe("keep my windows on the built CLI", () => {
  it("build → mcb edit a wall block → a rebuild with two floors more keeps it → a redesign of that block is refused, naming it, nothing written", async () => {
    const state = await stateDir();
    const built = await mcb("build", recipeFile(state, "tower2", tower(2)), "--state", state, "--json");
    expect(built.code).toBe(0);
    const first = JSON.parse(built.stdout) as { operation: { operation_id: string } };

    // The person's window, by hand (negative-free here; `mcb edit -3 …` needs no "--" either).
    const edit = await mcb("edit", String(WINDOW.x), String(WINDOW.y), String(WINDOW.z), "glass_pane", "--state", state);
    expect(edit.code).toBe(0);
    expect(edit.stdout).toMatch(/^placed minecraft:glass_pane\[.*\] at 3 66 0 by hand: 1 of 1 blocks changed/);
    // what it prints is what the world holds: the pane joined to the wall on both sides, as the game places it
    const printed = /^placed (\S+) at/.exec(edit.stdout)![1]!;
    expect(printed).toBe("minecraft:glass_pane[east=true,north=false,south=false,waterlogged=false,west=true]");
    const held = JSON.parse((await mcb("inspect", "3", "66", "0", "3", "66", "0", "--state", state, "--json")).stdout) as { palette: { state: string }[] };
    expect(held.palette.map((p) => p.state)).toEqual([printed]);

    const taller = await mcb("build", recipeFile(state, "tower4", tower(4)), "--state", state);
    expect(taller.code).toBe(0);
    expect(taller.stdout).toMatch(/kept 1 block a person changed by hand\n {2}kept 3 66 0: minecraft:glass_pane\[.*\] \(we had built minecraft:stone_bricks\)/);
    expect(taller.stdout).toMatch(/operation op_\w+ applied/);
    expect(await stateAt(state, WINDOW)).toBe(PANE);
    expect(await stateAt(state, v(0, 79, 0))).toBe("minecraft:stone_bricks"); // the two floors are there

    // A redesign of that very wall row: refused with the exact position, nothing written.
    const stairs = recipeFile(state, "stairs", {
      version: 1,
      operations: [{ type: "line", from: v(1, 66, 0), to: v(5, 66, 0), block: "minecraft:stone_brick_stairs[facing=south]" }],
    });
    const before = (await mcb("status", "--state", state, "--json")).stdout;
    const refused = await mcb("build", stairs, "--state", state);
    expect(refused.code).toBe(1);
    const err = JSON.parse(refused.stderr.trim().split("\n").at(-1)!) as {
      error: { code: string; details: { count: number; sample: { pos: unknown; actual: string }[]; boxes: unknown[] } };
    };
    expect(err.error).toMatchObject({
      code: "conflict",
      details: {
        reason: "manual_edits",
        count: 1,
        boxes: [{ min: WINDOW, max: WINDOW }],
        sample: [{ pos: WINDOW, actual: PANE, expected: "minecraft:stone_bricks" }],
      },
    });
    expect((await mcb("status", "--state", state, "--json")).stdout).toBe(before);
    expect(await stateAt(state, v(1, 66, 0))).toBe("minecraft:stone_bricks");

    // The owner's choices: keep it (the rest is written), or replace exactly that block.
    const kept = await mcb("build", stairs, "--state", state, "--on-manual-edit", "keep", "--json");
    expect(JSON.parse(kept.stdout)).toMatchObject({ plan: { changed_blocks: 4, manual_edits: { kept: 1, conflicts: 1 } }, operation: { status: "applied" } });
    expect(await stateAt(state, WINDOW)).toBe(PANE);
    const wrong = await mcb("build", stairs, "--state", state, "--replace", "2,66,0");
    expect(JSON.parse(wrong.stderr.trim()).error).toMatchObject({
      code: "invalid_request",
      details: { reason: "replace_not_manual_edit", sample: [v(2, 66, 0)] },
    });
    const replaced = await mcb("build", stairs, "--state", state, "--replace", "3,66,0", "--json");
    expect(JSON.parse(replaced.stdout)).toMatchObject({ plan: { changed_blocks: 1, manual_edits: { replaced: 1 } }, operation: { status: "applied" } });
    expect(await stateAt(state, WINDOW)).toMatch(/^minecraft:stone_brick_stairs\[facing=south/);

    // mcb undo never undoes a person's edit: the first build's undo leaves the window's place alone.
    const undo = await mcb("undo", first.operation.operation_id, "--state", state);
    expect(undo.stdout).toMatch(/blocks to restore, \d+ left as they are/);
    expect(await stateAt(state, WINDOW)).toMatch(/^minecraft:stone_brick_stairs/);
  }, 60_000);

  it("part define / diff / rename / delete; mcb edit with negative coordinates and --fill", async () => {
    const state = await stateDir();
    const built = JSON.parse((await mcb("build", recipeFile(state, "t", tower(1)), "--state", state, "--json")).stdout) as {
      operation: { operation_id: string };
    };
    const part = await mcb("part", "define", "tower", built.operation.operation_id, "--state", state, "--json");
    const p = JSON.parse(part.stdout) as { part_id: string; count: number };
    expect(p.count).toBeGreaterThan(100);
    expect((await mcb("edit", "--fill", "2", "65", "0", "4", "66", "0", "minecraft:air", "--state", state)).stdout).toMatch(/6 of 6 blocks changed/);
    expect((await mcb("edit", "-3", "64", "-2", "minecraft:oak_log[axis=x]", "--state", state)).code).toBe(0);
    const diff = await mcb("part", "diff", p.part_id, "--state", state);
    expect(diff.stdout).toMatch(
      new RegExp(
        `^${p.part_id}: 6 of ${p.count} blocks differ from what we built \\(6 edits seen as they happened, 0 found by content\\)\\n {2}2 65 0 \\.\\. 4 66 0\\n`,
      ),
    );
    expect((await mcb("part", "rename", p.part_id, "old tower", "--state", state)).stdout).toMatch(/"old tower": \d+ blocks/);
    expect((await mcb("part", "list", "--state", state)).stdout).toMatch(/"old tower"/);
    expect((await mcb("part", "delete", p.part_id, "--state", state)).stdout).toMatch(/its \d+ blocks stay in the world/);
    expect((await mcb("part", "list", "--state", state)).stdout.trim()).toBe("(no parts)");
    expect(await stateAt(state, v(-3, 64, -2))).toBe("minecraft:oak_log[axis=x]");
  }, 60_000);

  it("bad edits are refused with structured errors and change nothing", async () => {
    const state = await stateDir();
    const none = await mcb("edit", "0", "64", "0", "stone", "--state", state); // no world here yet: nothing is made
    expect([none.code, JSON.parse(none.stderr).error.details.reason]).toEqual([1, "state_missing"]);
    expect((await mcb("status", "--state", state, "--init")).code).toBe(0);
    const err = async (...args: string[]) => {
      const r = await mcb("edit", ...args, "--state", state);
      expect(r.code).toBe(1);
      return (JSON.parse(r.stderr.trim()) as { error: { code: string; details?: Record<string, unknown> } }).error;
    };
    expect(await err("0", "9999", "0", "stone")).toMatchObject({ code: "out_of_bounds" });
    expect(await err("5000", "64", "0", "stone")).toMatchObject({ code: "out_of_bounds" });
    expect(await err("0", "64", "0", "minecraft:not_a_block")).toMatchObject({ code: "unsupported_block" });
    expect(await err("--fill", "0", "0", "0", "99", "99", "99", "stone")).toMatchObject({ code: "budget_exceeded", details: { limit: 100000 } });
    expect((await mcb("edit", "0", "64", "stone", "--state", state)).code).toBe(2);
    const port = await mcb("edit", "0", "64", "0", "stone", "--state", state, "--world", "port://127.0.0.1:9");
    expect(JSON.parse(port.stderr.trim()).error).toMatchObject({ code: "invalid_request", details: { reason: "not_embedded" } });
    const inspect = JSON.parse((await mcb("inspect", "--state", state, "--json", "0", "64", "0", "0", "64", "0")).stdout) as { palette: unknown };
    expect(inspect.palette).toEqual([{ state: "minecraft:air", count: 1 }]);
  }, 60_000);

  it("mcb edit reaches a world another process holds (mcb mcp): the holder applies it as the person's", async () => {
    const state = await stateDir();
    expect((await mcb("build", recipeFile(state, "t", tower(2)), "--state", state)).code).toBe(0);
    const server = spawn(process.execPath, [cli, "mcp", "--state", state], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    server.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    try {
      for (let i = 0; i < 200 && !stderr.includes("serving the embedded world"); i++) await new Promise((r) => setTimeout(r, 50));
      const status = await mcb("status", "--state", state); // it holds the world, and serves this command
      expect(status.code).toBe(0);
      expect(status.stdout).toMatch(/state directory .*no recovery pending/s);
      const edit = await mcb("edit", String(WINDOW.x), String(WINDOW.y), String(WINDOW.z), "glass_pane", "--state", state);
      expect(edit.code).toBe(0);
      expect(edit.stdout).toMatch(/placed minecraft:glass_pane.* at 3 66 0 by hand: 1 of 1 blocks changed/);
    } finally {
      const exited = new Promise((r) => server.once("exit", r));
      server.stdin.end();
      await exited;
    }
    const rebuilt = JSON.parse((await mcb("build", recipeFile(state, "t4", tower(4)), "--state", state, "--json")).stdout) as {
      plan: { manual_edits: { kept: number } };
    };
    expect(rebuilt.plan.manual_edits.kept).toBe(1);
    expect(await stateAt(state, WINDOW)).toBe(PANE);
  }, 60_000);
});

/** Runs the built CLI in the background; resolves with its exit code once `signal` was sent after `trigger` appeared on stderr. */
async function interrupted(args: string[], trigger: RegExp, signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawn(process.execPath, [cli, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "",
    stderr = "",
    sent = false;
  p.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  p.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    if (!sent && trigger.test(stderr)) {
      sent = true;
      setTimeout(() => p.kill(signal), 300); // a few slices in
    }
  });
  const code = await new Promise<number | null>((r) => p.once("exit", r));
  return { code, stdout, stderr };
}

describe("interrupts are not crashes (built CLI)", () => {
  for (const [signal, exit] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal} during mcb build of 100,000 blocks: cancelled after the current slice, exit ${exit}, no recovery, undo restores everything`, async () => {
      const state = await stateDir();
      const big = recipeFile(state, "big", { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(99, 73, 99), block: "minecraft:stone" }] });
      const r = await interrupted(["build", big, "--state", state, "--max-rate", "20000"], /writes 100000 blocks in 196 slices/, signal);
      expect(r.code).toBe(exit);
      const m = /mcb: interrupted: operation (op_\w+) cancelled: (\d+) of 100000 blocks written; undo with: (mcb undo (op_\w+) .*)$/m.exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const [, id, written, command] = m!;
      // The hint is the whole command to paste: it names the state directory the build used.
      expect(command).toBe(`mcb undo ${id} --state ${state}`);
      expect(Number(written)).toBeGreaterThan(0);
      expect(Number(written)).toBeLessThan(100_000);
      expect(Number(written) % 512).toBe(0); // whole slices only
      const status = await mcb("status", "--state", state);
      expect(status.stdout).toContain(`${id} build cancelled ${written}/100000`);
      expect(status.stdout).toContain("no recovery pending");
      const stones = (
        JSON.parse((await mcb("inspect", "--state", state, "--json", "0", "64", "0", "63", "64", "63")).stdout) as {
          palette: { state: string; count: number }[];
        }
      ).palette;
      expect(stones.find((s) => s.state === "minecraft:stone")?.count ?? 0).toBeGreaterThan(0);
      const undo = await mcb(...command!.split(" ").slice(1));
      expect(undo.code).toBe(0);
      expect(undo.stdout).toContain(`${written} blocks to restore, 0 left as they are`);
      const after = JSON.parse((await mcb("inspect", "--state", state, "--json", "0", "64", "0", "63", "64", "63")).stdout) as { palette: unknown };
      expect(after.palette).toEqual([{ state: "minecraft:air", count: 4096 }]);
    }, 60_000);
  }

  it("SIGINT during a batch paste (mcb schem import): the current tile is cancelled, no new tile starts, exit 130; a rerun finishes it", async () => {
    const state = await stateDir();
    const n = 50;
    const cube: Schematic = {
      width: n,
      height: n,
      length: n,
      offset: v(0, 0, 0),
      dataVersion: 4786,
      palette: ["minecraft:air", "minecraft:stone"],
      blocks: new Uint32Array(n * n * n).fill(1),
      blockEntities: [],
    };
    const file = join(state, "cube.schem");
    writeFileSync(file, writeSchematic(cube));
    const r = await interrupted(
      ["schem", "import", file, "--at", "0,64,0", "--state", state, "--max-rate", "20000", "--part", "cube"],
      /tile 0: op_\w+ writes \d+ blocks/,
      "SIGINT",
    );
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/mcb: interrupted: operation op_\w+ cancelled: \d+ of \d+ blocks written; undo with: mcb undo op_\w+ --state \S+$/m);
    expect(r.stderr.match(/op_\w+ writes \d+ blocks/g)).toHaveLength(1); // the second tile never started
    const status = await mcb("status", "--state", state);
    expect(status.stdout).toContain("no recovery pending");
    const again = await mcb("schem", "import", file, "--at", "0,64,0", "--state", state, "--part", "cube", "--json");
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      mode: "batch",
      batch: { tiles: 2, applied: 2, unfinished: 0, completed: { part_name: "cube", part_blocks: 125000 } },
    });
  }, 60_000);
});

describe("a signal to mcb mcp is not a crash either", () => {
  it("SIGTERM while an agent's build runs: the operation stops after its slice (cancelled), nothing is left to recovery", async () => {
    const state = await stateDir();
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--state", state, "--max-rate", "20000"],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "signal", version: "1" });
    await client.connect(transport);
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent as Record<string, any>;
    const plan = await call("build_prepare", {
      recipe: { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(99, 73, 99), block: "minecraft:stone" }] },
    });
    const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "signal", wait_ms: 500 });
    expect(op.status).toBe("applying");
    const pid = transport.pid!;
    const gone = new Promise<void>((r) => (transport.onclose = () => r()));
    process.kill(pid, "SIGTERM");
    await gone;
    for (let i = 0; i < 100 && (await mcb("status", "--state", state)).code !== 0; i++) await new Promise((r) => setTimeout(r, 50)); // the lock is released on exit
    const status = await mcb("status", "--state", state);
    expect(status.stdout).toMatch(new RegExp(`${op.operation_id} build cancelled \\d+/100000`));
    expect(status.stdout).toContain("no recovery pending");
  }, 60_000);
});
