// Issue 23 targets: an agent builds the reference tower through MCP with ≤ 50% of the bytes a
// model receives and ≤ 60% of the calls it took before. The same scenario is replayed, in the same
// run, against the tree before issue 23 (BASELINE, checked out into a git worktree and built
// there) and against this tree, each through `mcb mcp` over stdio with the MCP SDK client:
// context, 3 material searches, 5 named parts (base, walls with a door, windows, details, roof),
// 3 captures, a roof rebuild (undo, new roof). Each session does what that tree needs: the old one
// prepares, applies and defines every part (3 calls), builds walls from 4 boxes with air boxes for
// the openings, details from one-block boxes, the roof from stepped boxes, and computes camera
// poses itself; the new one prepares and applies with a part name in one call, uses hollow
// "walls" with exclusions, a blocks list, the roof operation and framed captures. Bytes a model receives = for every call, the tool
// definitions listed at that moment (descriptions + input schemas) + the text of the answer;
// instructions and image bytes are printed beside them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { root, withBaselineTree } from "./baseline.mjs";

/** The last commit before issue 23 (compact schemas, part_name, framing, roof …). */
const BASELINE = "4ff4254";
const BYTES_TARGET = 0.5;
const CALLS_TARGET = 0.6;
const v = (x, y, z) => ({ x, y, z });

/** One MCP session against a tree's `mcb mcp`, counting what a model would receive. */
async function session(tree) {
  const state = mkdtempSync(join(tmpdir(), "mcb-transcript-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(tree, "packages/bridge/dist/bin.js"), "mcp", "--state", state],
    cwd: tree,
    stderr: "pipe",
  });
  const client = new Client({ name: "transcript", version: "1" });
  await client.connect(transport);
  const instructions = Buffer.byteLength(client.getInstructions() ?? "");
  let defs = 0;
  const relist = async () => {
    const { tools } = await client.listTools();
    defs = tools.reduce((n, t) => n + Buffer.byteLength(t.description ?? "") + Buffer.byteLength(JSON.stringify(t.inputSchema)), 0);
  };
  await relist();
  const t = { calls: 0, defsBytes: 0, answerBytes: 0, imageBytes: 0, instructionBytes: 0, perTurnDefs: defs };
  const call = async (name, args = {}) => {
    t.calls++;
    t.defsBytes += defs;
    t.instructionBytes += instructions;
    const r = await client.callTool({ name, arguments: args });
    for (const c of r.content) {
      if (c.type === "text") t.answerBytes += Buffer.byteLength(c.text);
      if (c.type === "image") t.imageBytes += Buffer.from(c.data, "base64").length;
    }
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    return r.structuredContent;
  };
  return {
    t,
    call,
    relist,
    close: async () => {
      await client.close();
      rmSync(state, { recursive: true, force: true });
    },
  };
}

const FOOT = { min: 0, max: 8 };
const baseRecipe = { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(8, 64, 8), block: "minecraft:stone_bricks" }] };
/** Window openings: two 2 × 2 windows in each wall. */
const windows = [];
for (const [side, fixed] of [
  ["z", 0],
  ["z", 8],
  ["x", 0],
  ["x", 8],
])
  for (const a of [2, 5]) windows.push(side === "z" ? { min: v(a, 67, fixed), max: v(a + 1, 68, fixed) } : { min: v(fixed, 67, a), max: v(fixed, 68, a + 1) });
const door = { min: v(4, 65, 0), max: v(4, 66, 0) };
const PANE = "minecraft:glass_pane";
const details = [
  [v(4, 65, 0), "minecraft:spruce_door[half=lower,facing=south]"],
  [v(4, 66, 0), "minecraft:spruce_door[half=upper,facing=south]"],
  [v(2, 65, 2), "minecraft:lantern"],
  [v(6, 65, 6), "minecraft:lantern"],
  ...[65, 66, 67, 68, 69, 70].map((y) => [v(7, y, 4), "minecraft:ladder[facing=west]"]),
];

/** What both sessions do first, with the same tools: the context and three material searches. */
async function survey(call) {
  await call("project_context");
  for (const q of ["stone bricks", "spruce stairs", "glass pane"]) await call("material_search", { query: q });
}

/** The scenario with the tools before issue 23. */
async function oldSession(s) {
  const { call } = s;
  await survey(call);
  let key = 0;
  const part = async (name, recipe) => {
    const plan = await call("build_prepare", { recipe });
    const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: `k${key++}`, wait_ms: 10_000 });
    if (op.status !== "applied") throw new Error(`${name}: ${op.status}`);
    const p = await call("part_define", { name, operation_id: op.operation_id });
    return { op, part: p };
  };
  await part("base", baseRecipe);
  const wall = (min, max) => ({ type: "box", min, max, block: "minecraft:stone_bricks" });
  const air = (b) => ({ type: "box", ...b, block: "minecraft:air" });
  await part("walls", {
    version: 1,
    operations: [
      wall(v(0, 65, 0), v(8, 70, 0)),
      wall(v(0, 65, 8), v(8, 70, 8)),
      wall(v(0, 65, 1), v(0, 70, 7)),
      wall(v(8, 65, 1), v(8, 70, 7)),
      air(door),
      ...windows.map(air),
    ],
  });
  await part("windows", { version: 1, operations: windows.map((w) => ({ type: "box", ...w, block: PANE })) });
  await part("details", { version: 1, connections: "pinned", operations: details.map(([p, b]) => ({ type: "box", min: p, max: p, block: b })) });
  const stepped = (axis) => ({
    version: 1,
    operations: [0, 1, 2, 3, 4].map((k) => ({
      type: "box",
      min: axis ? v(FOOT.min, 71 + k, FOOT.min + k) : v(FOOT.min + k, 71 + k, FOOT.min + k),
      max: axis ? v(FOOT.max, 71 + k, FOOT.max - k) : v(FOOT.max - k, 71 + k, FOOT.max - k),
      block: "minecraft:spruce_planks",
    })),
  });
  const roof = await part("roof", stepped(false));
  // Captures: the agent computes each pose (yaw 0 looks south, pitch +90 down).
  await call("camera_capture", { pose: { x: 4.5, y: 70, z: -18, yaw: 0, pitch: 12 } });
  await call("camera_capture", { pose: { x: 26, y: 70, z: 4.5, yaw: 90, pitch: 12 } });
  await call("camera_capture", { pose: { x: 4.5, y: 105, z: 4.5, yaw: 180, pitch: 90 } });
  // The roof redone as a gable: undo, apply, the new roof, apply, define.
  const undo = await call("operation_undo_prepare", { operation_id: roof.op.operation_id });
  const undone = await call("build_apply", { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: "undo-roof", wait_ms: 10_000 });
  if (undone.status !== "applied") throw new Error(`undo: ${undone.status}`);
  await part("roof", stepped(true));
}

/** The same scenario with this tree's tools. */
async function newSession(s) {
  const { call } = s;
  await survey(call);
  let key = 0;
  const part = async (name, recipe) => {
    const r = await call("build_prepare", { recipe, apply: { idempotency_key: `k${key++}`, part_name: name, wait_ms: 10_000 } });
    if (r.operation?.status !== "applied" || r.operation.part?.part_id == null) throw new Error(`${name}: ${JSON.stringify(r.operation)}`);
    return r.operation;
  };
  await part("base", baseRecipe);
  const walls = await part("walls", {
    version: 1,
    operations: [{ type: "box", min: v(0, 65, 0), max: v(8, 70, 8), block: "minecraft:stone_bricks", hollow: "walls", exclude: [door, ...windows] }],
  });
  await part("windows", { version: 1, operations: windows.map((w) => ({ type: "box", ...w, block: PANE })) });
  await part("details", { version: 1, connections: "pinned", operations: [{ type: "blocks", blocks: details.map(([p, b]) => ({ ...p, block: b })) }] });
  const roofOp = (style) => ({
    version: 1,
    operations: [
      {
        type: "roof",
        min: { x: 0, z: 0 },
        max: { x: 8, z: 8 },
        y: 71,
        style,
        axis: "x",
        stairs: "minecraft:spruce_stairs",
        slab: "minecraft:spruce_slab",
        overhang: 1,
        ...(style === "gable" ? { gable_block: "minecraft:spruce_planks" } : {}),
      },
    ],
  });
  const roof = await part("roof", roofOp("hip"));
  for (const side of ["north", "east", "top"]) await call("camera_capture", { frame: { part_id: walls.part.part_id, side } });
  await call("operation_undo_prepare", { operation_id: roof.operation_id, apply: { idempotency_key: "undo-roof", wait_ms: 10_000 } });
  await part("roof", roofOp("gable"));
}

export function run() {
  return withBaselineTree(BASELINE, async (dir) => {
    const results = {};
    for (const [label, tree, play] of [
      ["before (" + BASELINE + ")", dir, oldSession],
      ["now", root, newSession],
    ]) {
      const s = await session(tree);
      try {
        await play(s);
      } finally {
        await s.close();
      }
      results[label] = s.t;
    }
    const [before, now] = Object.values(results);
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    for (const [label, t] of Object.entries(results)) {
      console.log(
        `${label.padEnd(18)} calls ${String(t.calls).padStart(3)}; tool definitions ${kb(t.perTurnDefs)} per turn, ${kb(t.defsBytes)} in all; answers ${kb(t.answerBytes)}; model receives ${kb(t.defsBytes + t.answerBytes)} (+ instructions ${kb(t.instructionBytes)}, images ${kb(t.imageBytes)})`,
      );
    }
    const bytes = (now.defsBytes + now.answerBytes) / (before.defsBytes + before.answerBytes);
    const withInstructions = (now.defsBytes + now.answerBytes + now.instructionBytes) / (before.defsBytes + before.answerBytes + before.instructionBytes);
    const calls = now.calls / before.calls;
    console.log(
      `bytes a model receives: ${bytes.toFixed(2)}× (target ≤ ${BYTES_TARGET}×; with instructions ${withInstructions.toFixed(2)}×); calls: ${calls.toFixed(2)}× (target ≤ ${CALLS_TARGET}×); image bytes ${(now.imageBytes / before.imageBytes).toFixed(2)}×`,
    );
    return bytes <= BYTES_TARGET && calls <= CALLS_TARGET;
  });
}
