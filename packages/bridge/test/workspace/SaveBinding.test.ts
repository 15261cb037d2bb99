import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AnvilWorld } from "@mcb/adapter-anvil";
import { NbtReader, TAG, encodeNbt, nbt, type NbtCompound } from "@mcb/nbt";
import { errorOf, mcb, personSave, tempDirs } from "../support.js";

const tmp = tempDirs("mcb-binding-");

/** What the game does when a person renames the world in its menu: level.dat's LevelName changes. */
function renameInGame(save: string, name: string): void {
  const path = join(save, "level.dat");
  const r = new NbtReader(gunzipSync(readFileSync(path)));
  r.root();
  const root = r.compoundValue();
  const data = new Map((root.v.get("Data") as NbtCompound).v);
  data.set("LevelName", nbt.string(name));
  writeFileSync(path, gzipSync(encodeNbt("", nbt.compound([["Data", { t: TAG.Compound, v: data }]]))));
}

function recipe(dir: string, x: number, block: string): string {
  const path = join(dir, `r${x}.json`);
  writeFileSync(path, JSON.stringify({ version: 1, operations: [{ type: "box", min: { x, y: 64, z: 0 }, max: { x, y: 66, z: 0 }, block }] }));
  return path;
}

const opOf = (r: { stdout: string }): string => (JSON.parse(r.stdout) as { operation: { operation_id: string } }).operation.operation_id;

describe("one state directory per save", () => {
  it("a save moved to another folder, then renamed in the game, keeps its history and undo", async () => {
    const dir = await tmp();
    const state = join(dir, "state");
    let save = await personSave(join(dir, "My World"));
    const first = await mcb("build", recipe(dir, 2, "minecraft:stone_bricks"), "--world", `save:${save}`, "--state", state, "--json");
    expect(first.code, first.stderr).toBe(0);
    const second = await mcb("build", recipe(dir, 4, "minecraft:glass"), "--world", `save:${save}`, "--state", state, "--json");
    expect(second.code, second.stderr).toBe(0);

    renameSync(save, join(dir, "Moved World"));
    save = join(dir, "Moved World");
    const undone = await mcb("undo", opOf(first), "--world", `save:${save}`, "--state", state, "--json");
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stderr).toMatch(/was at .*My World; its history and undo follow it/);
    const status = await mcb("status", "--world", `save:${save}`, "--state", state);
    expect(status.stdout).toContain(opOf(second));

    renameInGame(save, "Castle");
    const undone2 = await mcb("undo", opOf(second), "--world", `save:${save}`, "--state", state, "--json");
    expect(undone2.code, undone2.stderr).toBe(0);
    expect(undone2.stderr).toMatch(/renamed from "mcb world" to "Castle"; its history and undo stay/);
    const w = await AnvilWorld.open({ dir: save });
    expect([w.stateAt(2, 65, 0), w.stateAt(4, 65, 0)]).toEqual(["minecraft:air", "minecraft:air"]);
    await w.close();
  });

  it("a state directory opened on another save, or on the embedded world, is refused naming both; nothing is written", async () => {
    const dir = await tmp();
    const state = join(dir, "state");
    const a = await personSave(join(dir, "A"));
    const b = await personSave(join(dir, "B"));
    const built = await mcb("build", recipe(dir, 2, "minecraft:stone"), "--world", `save:${a}`, "--state", state);
    expect(built.code, built.stderr).toBe(0);
    const other = await mcb("status", "--world", `save:${b}`, "--state", state);
    expect(other.code).toBe(1);
    expect(errorOf(other)).toMatchObject({
      code: "invalid_request",
      retryable: false,
      details: { reason: "another_world", bound_to: { path: a }, save: { path: b } },
    });
    expect(errorOf(other).message).toMatch(
      /belongs to the save "mcb world" \(.*\/A\) \(seed -?\d+\), not to "mcb world" \(.*\/B\) \(seed -?\d+\): give each save its own --state/,
    );
    const embedded = await mcb("status", "--state", state);
    expect(errorOf(embedded)).toMatchObject({ code: "invalid_request", details: { reason: "another_world" } });
    expect(errorOf(embedded).message).toMatch(/pass --world save:.*\/A/);
    expect(existsSync(join(state, "world"))).toBe(false);

    const own = join(dir, "embedded-state");
    expect((await mcb("build", recipe(dir, 3, "minecraft:stone"), "--state", own)).code).toBe(0);
    const save = await mcb("status", "--world", `save:${b}`, "--state", own);
    expect(errorOf(save)).toMatchObject({ code: "invalid_request", details: { reason: "another_world" } });
    expect(errorOf(save).message).toMatch(/holds mcb's own embedded world/);
    expect(existsSync(join(own, "save.json"))).toBe(false);
  });

  it("--init on a path that is not a save creates nothing", async () => {
    const dir = await tmp();
    const r = await mcb("status", "--world", `save:${join(dir, "nothing")}`, "--state", join(dir, "state"), "--init");
    expect(errorOf(r)).toMatchObject({ code: "not_found", details: { reason: "not_a_save" } });
    expect(existsSync(join(dir, "state"))).toBe(false);
    expect(existsSync(join(dir, "nothing"))).toBe(false);
  });
});
