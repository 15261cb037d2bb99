// Issue 44: look before you write. The same scripted agent tries three roofs on a tower and keeps the
// third, through `mcb mcp` over stdio with the MCP SDK client, twice in the same run on this tree:
// without previews (build each roof, capture it, undo the two it rejects) and with previews
// (build_prepare {preview} for each, build_apply for the one it keeps); then once more with
// previews and `mcb mcp --text summary` (no second JSON copy beside structuredContent). Targets
// against the session without previews: calls ≤ 0.8×, undos ≤ 0.5×, bytes of text and
// structuredContent ≤ 0.7×; image bytes are printed beside them. The ratios are those of what the
// agent has to do: a scripted agent, the same decisions in every session.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { root } from "./baseline.mjs";

const v = (x, y, z) => ({ x, y, z });
const walls = { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(8, 70, 8), block: "minecraft:stone_bricks", hollow: "walls" }] };
const roof = (style) => ({
  version: 1,
  operations: [{ type: "roof", min: { x: 0, z: 0 }, max: { x: 8, z: 8 }, y: 71, style, stairs: "minecraft:spruce_stairs", slab: "minecraft:spruce_slab" }],
});
const TRIED = ["flat", "hip", "gable"]; // the agent keeps the last

async function session(args, play) {
  const state = mkdtempSync(join(tmpdir(), "mcb-preview-bench-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "packages/bridge/dist/bin.js"), "mcp", "--state", state, ...args],
    stderr: "pipe",
  });
  const client = new Client({ name: "preview-bench", version: "1" });
  await client.connect(transport);
  const t = { calls: 0, undos: 0, textBytes: 0, structuredBytes: 0, imageBytes: 0 };
  const call = async (name, a = {}) => {
    t.calls++;
    if (name === "operation_undo_prepare") t.undos++;
    const r = await client.callTool({ name, arguments: a });
    for (const c of r.content) {
      if (c.type === "text") t.textBytes += Buffer.byteLength(c.text);
      if (c.type === "image") t.imageBytes += Buffer.from(c.data, "base64").length;
    }
    if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
    t.structuredBytes += Buffer.byteLength(JSON.stringify(r.structuredContent ?? {}));
    return r.structuredContent;
  };
  try {
    await play(call);
  } finally {
    await client.close();
    rmSync(state, { recursive: true, force: true });
  }
  return t;
}

async function writeThenLook(call) {
  await call("build_prepare", { recipe: walls, apply: { idempotency_key: "walls", part_name: "walls", wait_ms: 10_000 } });
  for (const [i, style] of TRIED.entries()) {
    const built = await call("build_prepare", { recipe: roof(style), apply: { idempotency_key: `roof-${style}`, wait_ms: 10_000 } });
    await call("camera_capture", { frame: { min: v(0, 64, 0), max: v(8, 76, 8), side: "iso" } });
    if (i < TRIED.length - 1)
      await call("operation_undo_prepare", { operation_id: built.operation.operation_id, apply: { idempotency_key: `undo-${style}`, wait_ms: 10_000 } });
  }
}

async function lookThenWrite(call) {
  await call("build_prepare", { recipe: walls, apply: { idempotency_key: "walls", part_name: "walls", wait_ms: 10_000 } });
  let kept = null;
  for (const style of TRIED) kept = await call("build_prepare", { recipe: roof(style), preview: { side: "iso" } });
  const op = await call("build_apply", { plan_id: kept.plan_id, plan_hash: kept.plan_hash, idempotency_key: "roof", wait_ms: 10_000 });
  if (op.status !== "applied") throw new Error(`roof: ${op.status}`);
  await call("camera_capture", { frame: { min: v(0, 64, 0), max: v(8, 76, 8), side: "iso" } });
}

export async function run() {
  const before = await session([], writeThenLook);
  const previews = await session([], lookThenWrite);
  const lean = await session(["--text", "summary"], lookThenWrite);
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const [label, t] of [
    ["write, then look", before],
    ["look, then write", previews],
    ["look, --text summary", lean],
  ])
    console.log(
      `${label.padEnd(22)} calls ${String(t.calls).padStart(2)}, undos ${t.undos}; text ${kb(t.textBytes)} + structured ${kb(t.structuredBytes)} = ${kb(t.textBytes + t.structuredBytes)}; images ${kb(t.imageBytes)}`,
    );
  const bytes = (t) => t.textBytes + t.structuredBytes;
  const calls = previews.calls / before.calls;
  const undos = previews.undos / before.undos;
  const leanBytes = bytes(lean) / bytes(before);
  console.log(
    `with previews: calls ${calls.toFixed(2)}× (target ≤ 0.8×), undos ${undos.toFixed(2)}× (≤ 0.5×), bytes ${(bytes(previews) / bytes(before)).toFixed(2)}× (with --text summary ${leanBytes.toFixed(2)}×, target ≤ 0.7×), image bytes ${(previews.imageBytes / before.imageBytes).toFixed(2)}×`,
  );
  return calls <= 0.8 && undos <= 0.5 && leanBytes <= 0.7;
}
