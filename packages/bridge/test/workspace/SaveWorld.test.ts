import { spawn } from "node:child_process";
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { MemoryWorld } from "@mcb/adapter-memory";
import { blockEntityPredicate } from "@mcb/blocks";
import { TAG, canonicalNbt, nbt } from "@mcb/nbt";
import { registry as sharedRegistry } from "../../../blocks/test/registry.js";

const registry = sharedRegistry();
import { personSave as aPersonSave, cli, errorOf, mcb, openWorld, root, tempDirs, tower } from "../support.js";

const tmp = tempDirs("mcb-save-world-");
const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";
/** {Items: [{Slot: 0b, count: 7, id: "minecraft:diamond"}]} in the engine's canonical bytes. */
const ITEMS = canonicalNbt(
  nbt.compound([
    [
      "Items",
      nbt.list(TAG.Compound, [
        nbt.compound([
          ["Slot", nbt.byte(0)],
          ["count", nbt.int(7)],
          ["id", nbt.string("minecraft:diamond")],
        ]),
      ]),
    ],
  ]),
);

describe("the embedded world is a Minecraft save", () => {
  it("a world of the first format is converted once: every block, its block-entity data, its identity and its event log kept", async () => {
    const state = await tmp();
    writeFileSync(join(state, "mcb-state"), "an mcb state directory\n");
    const old = new MemoryWorld({ dir: join(state, "world"), hasBlockEntity: blockEntityPredicate(registry) });
    const oldId = (await old.info()).worldId;
    old.externalEdits([
      { x: 0, y: 64, z: 0, state: "minecraft:stone_bricks" },
      { x: -20, y: 70, z: 33, state: "minecraft:glass" },
      { x: 5, y: 40, z: 5, state: "minecraft:air" },
    ]);
    old.externalEdit(1, 64, 0, CHEST, { data: ITEMS });
    const digest = old.digestAt(1, 64, 0);
    const cursorBefore = (await old.events(null)).cursor;
    await old.close();
    const lines: string[] = [];
    const { openWorkspace } = await import("../../src/workspace/world/OpenWorkspace.js");
    const opened = await openWorkspace(state, { log: (l) => lines.push(l) });
    if (!opened.ok) throw new Error(opened.error.message);
    const w = opened.value;
    try {
      expect(lines.join("\n")).toMatch(/converted the embedded world \(3 blocks in 2 sections\) to a Minecraft save/);
      expect(existsSync(join(state, "world", "world.json"))).toBe(false);
      expect(existsSync(join(state, "world", "level.dat"))).toBe(true);
      expect((await w.world.info()).worldId).toBe(oldId);
      expect(w.embedded!.stateAt(0, 64, 0)).toBe("minecraft:stone_bricks");
      expect(w.embedded!.stateAt(-20, 70, 33)).toBe("minecraft:glass");
      expect(w.embedded!.stateAt(1, 64, 0)).toBe(CHEST);
      expect(w.embedded!.digestAt(1, 64, 0)).toBe(digest);
      expect(w.embedded!.stateAt(5, 40, 5)).toBe("minecraft:stone"); // air below y 64 became the ground
      expect((await w.world.events(cursorBefore)).gap).toBe(false); // the event log carried over
    } finally {
      await w.close();
    }
    const again: string[] = [];
    const reopened = await openWorkspace(state, { log: (l) => again.push(l) });
    if (!reopened.ok) throw new Error(reopened.error.message);
    await reopened.value.close();
    expect(again.join("\n")).not.toMatch(/converted/);
  });
});

describe("--world save:PATH edits a person's save offline", () => {
  const personSave = async (): Promise<string> => aPersonSave(join(await tmp(), "My World"));

  it("builds and undoes the example tower in it; the area is the save's chunks (--area widens it); refuses a build where the save has no chunks, naming the chunk; a save the game holds is busy", async () => {
    const save = await personSave();
    const state = await tmp();
    const built = await mcb("build", tower, "--world", `save:${save}`, "--state", state);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stdout).toMatch(/saved to disk/);
    const probe = await AnvilWorld.open({ dir: save, registry });
    expect(probe.stateAt(0, 64, 0)).not.toBe("minecraft:air");
    await probe.close();

    const far = join(state, "far.json");
    writeFileSync(
      far,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 300, y: 64, z: 0 }, max: { x: 301, y: 64, z: 0 }, block: "minecraft:stone" }] }),
    );
    const outside = await mcb("build", far, "--world", `save:${save}`, "--state", state);
    expect(outside.code).toBe(1);
    expect(errorOf(outside)).toMatchObject({ code: "out_of_bounds", details: { area: { min: { x: -16, y: -64, z: -16 }, max: { x: 31, y: 319, z: 31 } } } });
    expect(errorOf(outside).message).toMatch(
      /outside the project area \(x -16\.\.31, y -64\.\.319, z -16\.\.31\); it is the box of the chunks this save has: pass --area minX,minZ,maxX,maxZ/,
    );
    const status = await mcb("status", "--world", `save:${save}`, "--state", state);
    expect(status.stdout).toMatch(/version Minecraft 26\.2 \(DataVersion 4903\): read and write/);
    expect(status.stdout).toMatch(/area x -16\.\.31, z -16\.\.31, y -64\.\.319 \(the chunks this save has; --area to change it\)/);
    const refused = await mcb("build", far, "--world", `save:${save}`, "--state", state, "--area", "-1000,-1000,1000,1000");
    expect(refused.code).toBe(1);
    expect(errorOf(refused)).toMatchObject({ code: "out_of_bounds", retryable: false, details: { reason: "chunk_not_generated", chunk: { x: 18, z: 0 } } });
    expect(errorOf(refused).message).toMatch(/chunk 18,0 is not generated in this save/);

    const game = spawn(
      "python3",
      [
        "-c",
        "import fcntl,sys; f=open(sys.argv[1],'a+b'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
        join(save, "session.lock"),
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => game.stdout!.once("data", () => resolve()));
    try {
      const busy = await mcb("status", "--world", `save:${save}`, "--state", state);
      expect(busy.code).toBe(1);
      expect(errorOf(busy)).toMatchObject({ code: "busy", retryable: true, details: { reason: "session_locked" } });
      expect(errorOf(busy).message).toMatch(/open in Minecraft or another program/);
    } finally {
      game.stdin!.end();
      await new Promise((r) => game.once("exit", r));
    }
    const id = /operation (op_\w+)/.exec(built.stdout + built.stderr)?.[1];
    const undone = await mcb("undo", id!, "--world", `save:${save}`, "--state", state);
    expect(undone.code, undone.stderr).toBe(0);
    const w = await openWorld(state).catch(() => null); // the state dir is bound to the save, not to an embedded world
    await w?.close();
  });

  it("a build at the edge of the save's chunks: applied, nothing joined or written past the edge, the note names the chunk; a write past it is refused naming it", async () => {
    const save = await personSave();
    const state = await tmp();
    const edge = join(state, "edge.json");
    writeFileSync(
      edge,
      JSON.stringify({
        version: 1,
        operations: [
          { type: "box", min: { x: 29, y: 64, z: 5 }, max: { x: 31, y: 64, z: 5 }, block: "minecraft:oak_fence" },
          { type: "box", min: { x: 31, y: 65, z: 5 }, max: { x: 31, y: 65, z: 5 }, block: "minecraft:stone" },
        ],
      }),
    );
    const built = await mcb("build", edge, "--world", `save:${save}`, "--state", state, "--json");
    expect(built.code, built.stderr).toBe(0);
    const out = JSON.parse(built.stdout) as { plan: { warnings: string[] }; operation: { status: string; counters: { written: number } } };
    expect(out.operation).toMatchObject({ status: "applied", counters: { written: 4 } });
    expect(out.plan.warnings.join("\n")).toMatch(/borders 1 chunk the world does not have \(2,0\): nothing there to join, and nothing written there/);
    const w = await AnvilWorld.open({ dir: save, registry });
    expect(w.stateAt(31, 64, 5)).toBe("minecraft:oak_fence[east=false,north=false,south=false,waterlogged=false,west=true]");
    await w.close();
    writeFileSync(
      edge,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 31, y: 64, z: 6 }, max: { x: 32, y: 64, z: 6 }, block: "minecraft:stone" }] }),
    );
    const past = await mcb("build", edge, "--world", `save:${save}`, "--state", state, "--area", "-16,-16,47,31");
    expect(errorOf(past)).toMatchObject({ code: "out_of_bounds", details: { reason: "chunk_not_generated", chunk: { x: 2, z: 0 } } });
  });

  it("a 26.x save with its regions in region/ (a Paper server's layout): mcb says the game reads dimensions/, and writes where the regions are", async () => {
    const save = await personSave();
    renameSync(join(save, "dimensions", "minecraft", "overworld", "region"), join(save, "region"));
    rmSync(join(save, "dimensions"), { recursive: true });
    const state = await tmp();
    const built = await mcb("build", tower, "--world", `save:${save}`, "--state", state);
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(
      /warning: .* save with its regions in region\/, as Paper and Spigot servers keep them; the game itself \(26\.1 and later\) reads dimensions\/minecraft\/overworld\/region\//,
    );
    expect(existsSync(join(save, "dimensions"))).toBe(false);
  });

  it("a folder without level.dat is not a save: not_found, nothing created", async () => {
    const dir = await tmp();
    const r = await mcb("status", "--world", `save:${join(dir, "nothing")}`, "--state", join(dir, "state"), "--init");
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: "not_found", details: { reason: "not_a_save" } });
    expect(existsSync(join(dir, "nothing"))).toBe(false);
  });
});

describe("mcb mcp --world save:PATH", () => {
  it("serves the agent's tools on a person's save: context, inspect, a build, its saved state", async () => {
    const dir = await tmp();
    const save = join(dir, "World");
    const w = await AnvilWorld.open({ dir: save, flatGround: true });
    await w.compareAndSet({
      checks: [],
      writes: [-1, 0, 1].flatMap((cx) =>
        [-1, 0, 1].map((cz) => ({ x: cx * 16 + 8, y: 64, z: cz * 16 + 8, before: "minecraft:air", beforeDigest: null, after: "minecraft:torch" })),
      ),
    });
    await w.close();
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--state", join(dir, "state"), "--world", `save:${save}`, "--area", "-512,-512,511,511"],
      cwd: root,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "mcb-save", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = await client.callTool({ name, arguments: args });
        if (r.isError === true) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
        return r.structuredContent as Record<string, any>;
      };
      const ctx = await call("project_context", {});
      expect(ctx.world).toMatchObject({
        minecraft_version: registry.minecraftVersion,
        data_version: registry.dataVersion,
        saved_by: { data_version: 4903, release: "26.2" },
      });
      expect(ctx.world.read_only).toBeUndefined();
      expect(ctx.area).toEqual({ min: { x: -512, y: -64, z: -512 }, max: { x: 511, y: 319, z: 511 } });
      expect((await call("region_inspect", { min: { x: 0, y: 63, z: 0 }, max: { x: 1, y: 63, z: 1 }, detail: "summary" })).palette).toEqual([
        { state: "minecraft:grass_block[snowy=false]", count: 4 },
      ]);
      const plan = await call("build_prepare", {
        recipe: {
          version: 1,
          operations: [{ type: "box", min: { x: 2, y: 64, z: 2 }, max: { x: 4, y: 66, z: 4 }, block: "minecraft:stone_bricks", hollow: true }],
        },
      });
      const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "hut", wait_saved: true });
      expect(op).toMatchObject({ status: "applied", saved: true, counters: { written: plan.changed_blocks } });
      const missing = await client.callTool({
        name: "region_inspect",
        arguments: { min: { x: 400, y: 63, z: 0 }, max: { x: 400, y: 63, z: 0 }, detail: "summary" },
      });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toMatch(/chunk_not_generated/);
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/serving the save .*World/);
    const after = await AnvilWorld.open({ dir: save, registry });
    expect(after.stateAt(2, 65, 2)).toBe("minecraft:stone_bricks");
    await after.close();
  }, 60_000);
});
