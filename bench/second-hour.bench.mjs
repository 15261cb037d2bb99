// Issue 32 targets: an agent's second hour on two builds takes ≤ 0.8× the calls and ≤ 0.5× the
// image bytes of the tree before issue 32 (BASELINE, built in a git worktree in the same run), each
// through `mcb mcp` over stdio with the MCP SDK client, while a person edits the world by hand
// (`mcb edit` of that tree, through the state directory's inbox).
//
// A. A tower grown by two floors with a new roof. The person glazes a wall block and breaks a
//    roof block; the agent finds what they changed (before: part_diff per part; now: one
//    part_diff over the parts), takes the old roof off, builds two floors and a new roof, then a
//    chimney through that roof (before: naming the chimney fails on the overlap, so it undoes the
//    chimney and the roof and rebuilds the roof with a gap; now: take_over the roof's blocks).
// B. An L-shaped house. Before, the roof is one roof operation per wing: the roofs cross, a capture
//    shows it, the agent undoes it and rebuilds one wing's roof from stepped boxes; now one roof
//    over the L footprint meets in valleys.
// Captures are framed views (before: PNG; now: JPEG by default). Calls and bytes are counted as in
// transcript.bench.mjs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { root, withBaselineTree } from "./baseline.mjs";

/** The last commit before issue 32 (take_over, roof footprints, several-part diffs, JPEG captures …). */
const BASELINE = "6b34909";
const CALLS_TARGET = 0.8;
const IMAGES_TARGET = 0.5;
const v = (x, y, z) => ({ x, y, z });

async function session(tree) {
  const state = mkdtempSync(join(tmpdir(), "mcb-second-hour-"));
  const bin = join(tree, "packages/bridge/dist/bin.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--state", state], cwd: tree, stderr: "pipe" });
  const client = new Client({ name: "second-hour", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const defs = tools.reduce((n, t) => n + Buffer.byteLength(t.description ?? "") + Buffer.byteLength(JSON.stringify(t.inputSchema)), 0);
  const t = { calls: 0, defsBytes: 0, answerBytes: 0, imageBytes: 0, images: 0 };
  const call = async (name, args = {}) => {
    t.calls++;
    t.defsBytes += defs;
    const r = await client.callTool({ name, arguments: args });
    for (const c of r.content) {
      if (c.type === "text") t.answerBytes += Buffer.byteLength(c.text);
      if (c.type === "image") ((t.imageBytes += Buffer.from(c.data, "base64").length), t.images++);
    }
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    return r.structuredContent;
  };
  /** A person's edit by hand, as that tree's `mcb edit` makes it (not a call of the agent). */
  const person = (x, y, z, block) => {
    const r = spawnSync(process.execPath, [bin, "edit", String(x), String(y), String(z), block, "--state", state], { cwd: tree, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`mcb edit: ${r.stderr}`);
  };
  return {
    t,
    call,
    person,
    close: async () => {
      await client.close();
      rmSync(state, { recursive: true, force: true });
    },
  };
}

let key = 0;
/** One part per call: prepare and apply with its name (both trees have this since issue 23). */
async function part(call, name, operations, extra = {}) {
  const r = await call("build_prepare", {
    recipe: { version: 1, operations },
    apply: { idempotency_key: `k${key++}`, part_name: name, wait_ms: 10_000, ...extra },
  });
  if (r.operation?.status !== "applied") throw new Error(`${name}: ${JSON.stringify(r.operation ?? r)}`);
  return r.operation;
}
const undo = async (call, operationId) => {
  const r = await call("operation_undo_prepare", { operation_id: operationId, apply: { idempotency_key: `u${key++}`, wait_ms: 10_000 } });
  if (r.operation?.status !== "applied") throw new Error(`undo: ${JSON.stringify(r.operation ?? r)}`);
};
const capture = (call, min, max, views) => call("camera_capture", { frame: { min, max, views } });

const windows = [];
for (const [side, fixed] of [
  ["z", 0],
  ["z", 8],
  ["x", 0],
  ["x", 8],
])
  for (const a of [2, 5]) windows.push(side === "z" ? { min: v(a, 67, fixed), max: v(a + 1, 68, fixed) } : { min: v(fixed, 67, a), max: v(fixed, 68, a + 1) });
const upperWindows = windows.map((w) => ({ min: { ...w.min, y: w.min.y + 6 }, max: { ...w.max, y: w.max.y + 6 } }));
const hip = (y, min, max) => ({ type: "roof", min, max, y, style: "hip", stairs: "minecraft:spruce_stairs", slab: "minecraft:spruce_slab", overhang: 1 });

/** A: the tower, the person's edits, two more floors, a new roof and a chimney. */
async function tower(s, now) {
  const { call, person } = s;
  await call("project_context");
  const base = await part(call, "base", [{ type: "box", min: v(0, 64, 0), max: v(8, 64, 8), block: "minecraft:stone_bricks" }]);
  const walls = await part(call, "walls", [
    {
      type: "box",
      min: v(0, 65, 0),
      max: v(8, 70, 8),
      block: "minecraft:stone_bricks",
      hollow: "walls",
      exclude: [{ min: v(4, 65, 0), max: v(4, 66, 0) }, ...windows],
    },
  ]);
  const roof = await part(call, "roof", [hip(71, { x: 0, z: 0 }, { x: 8, z: 8 })]);
  await capture(call, v(-1, 64, -1), v(9, 75, 9), ["north", "east", "top"]);
  person(1, 66, 0, "glass_pane");
  person(4, 75, 4, "air");
  const ids = [base, walls, roof].map((o) => o.part.part_id);
  if (now) {
    const diff = await call("part_diff", { part_ids: ids });
    if (diff.changed !== 2) throw new Error(`diff: ${JSON.stringify(diff)}`);
  } else for (const id of ids) await call("part_diff", { part_id: id });
  await undo(call, roof.operation_id);
  await part(
    call,
    "upper walls",
    [{ type: "box", min: v(0, 71, 0), max: v(8, 76, 8), block: "minecraft:stone_bricks", hollow: "walls", exclude: upperWindows }],
    {},
  );
  const roof2 = await part(call, "roof 2", [hip(77, { x: 0, z: 0 }, { x: 8, z: 8 })]);
  const chimney = [{ type: "box", min: v(6, 77, 6), max: v(6, 81, 6), block: "minecraft:bricks" }];
  if (now) await part(call, "chimney", chimney, { take_over: ["roof 2"] });
  else {
    const first = await part(call, "chimney", chimney);
    if (first.part.part_id !== null) throw new Error("the tree before issue 32 named an overlapping part");
    await undo(call, first.operation_id);
    await undo(call, roof2.operation_id);
    await part(call, "roof 3", [hip(77, { x: 0, z: 0 }, { x: 8, z: 8 }), { type: "box", min: v(6, 77, 6), max: v(6, 81, 6), block: "minecraft:air" }]);
    await part(call, "chimney 2", chimney);
  }
  await capture(call, v(-1, 64, -1), v(9, 82, 9), ["north", "east"]);
}

/** B: the L-shaped house and its roof. */
async function lHouse(s, now) {
  const { call } = s;
  const a = { min: { x: 20, z: 0 }, max: { x: 30, z: 4 } },
    b = { min: { x: 20, z: 0 }, max: { x: 24, z: 10 } };
  const box3 = (r, y0, y1) => ({ min: v(r.min.x, y0, r.min.z), max: v(r.max.x, y1, r.max.z) });
  await part(
    call,
    "L base",
    [a, b].map((r) => ({ type: "box", ...box3(r, 64, 64), block: "minecraft:cobblestone" })),
  );
  await part(call, "L walls", [
    ...[a, b].map((r) => ({ type: "box", ...box3(r, 65, 68), block: "minecraft:oak_planks", hollow: "walls" })),
    { type: "box", min: v(21, 65, 4), max: v(23, 68, 4), block: "minecraft:air" },
    { type: "box", min: v(24, 65, 1), max: v(24, 68, 3), block: "minecraft:air" },
  ]);
  const frame = [v(18, 64, -2), v(32, 74, 12)];
  if (now) {
    await part(call, "L roof", [
      { type: "roof", footprint: [a, b], y: 69, style: "hip", stairs: "minecraft:dark_oak_stairs", slab: "minecraft:dark_oak_slab", overhang: 1 },
    ]);
    await capture(call, ...frame, ["iso"]);
    return;
  }
  const roofOf = (r) => ({ type: "roof", ...r, y: 69, style: "hip", stairs: "minecraft:dark_oak_stairs", slab: "minecraft:dark_oak_slab", overhang: 1 });
  const crossing = await part(call, "L roof", [roofOf(a), roofOf(b)]);
  await capture(call, ...frame, ["iso"]); // the wings' roofs cross: planks and stairs poke through
  await undo(call, crossing.operation_id);
  // One wing's roof, the other wing as stepped boxes that stop at the first wing's eave.
  const steps = [0, 1, 2].map((k) => ({ type: "box", min: v(19 + k, 69 + k, 6), max: v(25 - k, 69 + k, 11 - k), block: "minecraft:dark_oak_planks" }));
  await part(call, "L roof 2", [roofOf(a), ...steps]);
  await capture(call, ...frame, ["iso"]);
}

export function run() {
  return withBaselineTree(BASELINE, async (dir) => {
    const results = {};
    for (const [label, tree, now] of [
      [`before (${BASELINE})`, dir, false],
      ["now", root, true],
    ]) {
      const s = await session(tree);
      try {
        await tower(s, now);
        await lHouse(s, now);
      } finally {
        await s.close();
      }
      results[label] = s.t;
    }
    const [before, after] = Object.values(results);
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    for (const [label, t] of Object.entries(results))
      console.log(
        `${label.padEnd(18)} calls ${String(t.calls).padStart(3)}; ${t.images} images, ${kb(t.imageBytes)}; tool definitions ${kb(t.defsBytes)} in all; answers ${kb(t.answerBytes)}`,
      );
    const calls = after.calls / before.calls,
      images = after.imageBytes / before.imageBytes;
    const bytes = (after.defsBytes + after.answerBytes) / (before.defsBytes + before.answerBytes);
    console.log(
      `calls: ${calls.toFixed(2)}× (target ≤ ${CALLS_TARGET}×); image bytes: ${images.toFixed(2)}× (target ≤ ${IMAGES_TARGET}×); text bytes a model receives: ${bytes.toFixed(2)}×`,
    );
    return calls <= CALLS_TARGET && images <= IMAGES_TARGET;
  });
}
