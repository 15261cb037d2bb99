import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openWorkspace, type Workspace } from "../../src/index.js";
import { applyPersonEdit } from "../../src/workspace/edits/PersonEdit.js";

/**
 * `mcb edit` places blocks as the game does: fences, panes, bars, walls and stairs take the
 * connections the game gives them from their neighbours, and the neighbours join them back. The
 * vectors (test/vectors/placement.json) are the game's behaviour as its documentation and its
 * code state it, each case citing its source; `exact` writes the state as given.
 */
type Case = {
  name: string;
  source: string;
  setup: [number, number, number, string][];
  place: { min: number[]; max: number[]; state: string };
  expect: Record<string, Record<string, string>>;
};
const vectors = JSON.parse(readFileSync(new URL("../vectors/placement.json", import.meta.url), "utf8")) as { cases: Case[] };
const v = (a: number[]) => ({ x: a[0]!, y: a[1]!, z: a[2]! });
let open: Workspace[] = [];
afterEach(async () => {
  for (const w of open) await w.close();
  open = [];
});

async function workspace(): Promise<Workspace> {
  const w = await openWorkspace(mkdtempSync(join(tmpdir(), "mcb-edit-")), { create: true, log: () => {} });
  if (!w.ok) throw new Error(w.error.message);
  open.push(w.value);
  return w.value;
}

describe("mcb edit connects blocks as the game places them", () => {
  for (const c of vectors.cases)
    it(c.name, async () => {
      const w = await workspace();
      for (const [x, y, z, state] of c.setup) expect((await applyPersonEdit(w, { min: { x, y, z }, max: { x, y, z }, state, exact: true })).ok).toBe(true);
      const r = await applyPersonEdit(w, { min: v(c.place.min), max: v(c.place.max), state: c.place.state });
      if (!r.ok) throw new Error(r.error.message);
      for (const [key, props] of Object.entries(c.expect)) {
        const [x, y, z] = key.split(",").map(Number) as [number, number, number];
        const state = w.registry.stateOf(w.embedded!.stateAt(x, y, z)).properties;
        expect(state, `${c.name} at ${key} (${c.source})`).toMatchObject(props);
      }
    });

  it("--exact writes the state as given; joined or not, the edits are the person's: region_changes(source person) lists them with before and after", async () => {
    const w = await workspace();
    const box = { min: { x: -1, y: 64, z: 0 }, max: { x: 1, y: 64, z: 1 } };
    const start = await w.engine.regionChanges(w.ctx, box);
    if (!start.ok) throw new Error(start.error.message);
    for (const x of [-1, 1]) await applyPersonEdit(w, { min: { x, y: 64, z: 0 }, max: { x, y: 64, z: 0 }, state: "minecraft:glass", exact: true });
    const exact = await applyPersonEdit(w, { min: { x: 0, y: 64, z: 0 }, max: { x: 0, y: 64, z: 0 }, state: "minecraft:glass_pane", exact: true });
    expect(exact).toMatchObject({ ok: true, value: { joined: 0, neighbours_updated: 0 } });
    expect(w.registry.stateOf(w.embedded!.stateAt(0, 64, 0)).properties).toMatchObject({ east: "false", west: "false" });
    const joined = await applyPersonEdit(w, { min: { x: 0, y: 64, z: 1 }, max: { x: 0, y: 64, z: 1 }, state: "minecraft:glass_pane" });
    expect(joined).toMatchObject({ ok: true, value: { joined: 1, neighbours_updated: 1 } }); // it joins the pane north of it, which joins back
    expect(w.registry.stateOf(w.embedded!.stateAt(0, 64, 0)).properties).toMatchObject({ south: "true", east: "false" });
    const page = await w.engine.regionChanges(w.ctx, { ...box, since_cursor: start.value.next_cursor, source: "person" });
    if (!page.ok) throw new Error(page.error.message);
    const pane = (s: string) =>
      `minecraft:glass_pane[east=false,north=${s.includes("n") ? "true" : "false"},south=${s.includes("s") ? "true" : "false"},waterlogged=false,west=false]`;
    expect(page.value.changes.map((c) => [c.pos.x, c.pos.z, c.before, c.after, c.source])).toEqual([
      [-1, 0, null, "minecraft:glass", "external"],
      [1, 0, null, "minecraft:glass", "external"],
      [0, 0, null, pane(""), "external"],
      [0, 1, null, pane("n"), "external"],
      [0, 0, pane(""), pane("s"), "external"], // the neighbour joined back: before is what the journal last knew there
    ]);
    const ours = await w.engine.regionChanges(w.ctx, { ...box, since_cursor: start.value.next_cursor, source: "ours" });
    expect(ours.ok && ours.value.changes).toEqual([]);
    expect(await w.engine.regionChanges(w.ctx, { ...box, since_cursor: start.value.next_cursor, source: "theirs" as "all" })).toMatchObject({
      ok: false,
      error: { details: { reason: "source" } },
    });
  });
});
