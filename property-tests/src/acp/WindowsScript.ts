import { randomBytes } from "node:crypto";
import type * as acp from "@agentclientprotocol/sdk";

// The chat stage's acceptance script of the scripted agent ("keep my windows"; see ScriptedAgent.ts).

/** A tool's structured refusal: `{code, message, details}` as the server sent it. */
export class ToolError extends Error {
  constructor(
    name: string,
    readonly error: { code?: string; details?: Record<string, unknown> },
    text: string,
  ) {
    super(`${name}: ${text.slice(0, 300)}`);
  }
}

/** Where the prompt says the player stands (the console player: on the embedded world's ground). */
export function playerPos(all: string): { x: number; y: number; z: number } {
  const m = /player at (-?\d+) (-?\d+) (-?\d+)/.exec(all);
  return m ? { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) } : { x: 0, y: 64, z: 0 }; // the console player: on the embedded world's ground
}

export type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
type Pos = { x: number; y: number; z: number };

/** The tower of the "keep my windows" scripts: walls from `base` (5×5, `levels` high) and a stepped roof above. */
function walls(base: Pos, levels: number): unknown {
  return {
    version: 1,
    operations: [{ type: "box", min: base, max: { x: base.x + 4, y: base.y + levels - 1, z: base.z + 4 }, block: "minecraft:stone_bricks", hollow: true }],
  };
}

function roof(base: Pos, y: number, block: string): unknown {
  const layer = (d: number) => ({
    type: "box",
    min: { x: base.x + d, y: y + d, z: base.z + d },
    max: { x: base.x + 4 - d, y: y + d, z: base.z + 4 - d },
    block,
  });
  return { version: 1, operations: [layer(0), layer(1), layer(2)] };
}

async function applyPlan(call: Call, plan: Record<string, unknown>, key: string): Promise<Record<string, unknown>> {
  const op = await call("build_apply", { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: key, wait_ms: 10_000 });
  if (op.status !== "applied") throw new Error(`${key}: ${String(op.status)}`);
  return op;
}

async function partNamed(call: Call, name: string): Promise<Record<string, unknown>> {
  const ctx = await call("project_context", {});
  const p = (ctx.parts as { part_id: string; name: string; retired: boolean }[]).find((q) => q.name === name && !q.retired);
  if (p === undefined) throw new Error(`no part named ${name}`);
  return call("part_get", { part_id: p.part_id });
}

export async function keepMyWindows(
  request: string,
  all: string,
  call: Call,
  say: (t: string) => Promise<void>,
  ended: () => acp.PromptResponse,
): Promise<acp.PromptResponse> {
  const at = playerPos(all);
  const base = { x: at.x + 2, y: at.y, z: at.z + 2 };
  const tag = randomBytes(3).toString("hex");
  if (/tower with a roof/i.test(request)) {
    const w = await call("build_prepare", { recipe: walls(base, 8) });
    const wop = await applyPlan(call, w, `walls-${tag}`);
    const wp = await call("part_define", { name: "tower walls", operation_id: wop.operation_id });
    const r = await call("build_prepare", { recipe: roof(base, base.y + 8, "minecraft:oak_planks") });
    const rop = await applyPlan(call, r, `roof-${tag}`);
    const rp = await call("part_define", { name: "tower roof", operation_id: rop.operation_id });
    await say(`Tower with a roof: walls ${String(wp.part_id)} (${String(wp.count)} blocks), roof ${String(rp.part_id)} (${String(rp.count)} blocks).`);
    return ended();
  }
  if (/copper roof/i.test(request)) {
    const rp = await partNamed(call, "tower roof");
    const b = rp.bounds as { min: Pos };
    const plan = await call("build_prepare", { recipe: roof({ x: b.min.x, y: b.min.y, z: b.min.z }, b.min.y, "minecraft:cut_copper"), part_id: rp.part_id });
    await applyPlan(call, plan, `copper-${tag}`);
    await say(`Roof ${String(rp.part_id)} is copper now: ${String(plan.changed_blocks)} blocks changed, nothing outside it.`);
    return ended();
  }
  if (/two floors/i.test(request)) {
    const wp = await partNamed(call, "tower walls");
    const diff = await call("part_diff", { part_id: wp.part_id });
    const edits = (diff.sample as { pos: Pos }[]).map((e) => `${e.pos.x} ${e.pos.y} ${e.pos.z}`);
    await say(`You changed ${String(diff.changed)} block(s) of the walls by hand${edits.length > 0 ? ` (at ${edits.join(", ")})` : ""}; I will keep them.`);
    // Take the old roof down inside its part (air over its mask), then forget the part.
    const rp = await partNamed(call, "tower roof");
    const rb = rp.bounds as { min: Pos };
    const clear = await call("build_prepare", { recipe: roof(rb.min, rb.min.y, "minecraft:air"), part_id: rp.part_id });
    await applyPlan(call, clear, `unroof-${tag}`);
    await call("part_delete", { part_id: rp.part_id });
    const wb = wp.bounds as { min: Pos; max: Pos };
    const wmin = wb.min;
    const taller = await call("build_prepare", { recipe: walls(wmin, wb.max.y - wmin.y + 1 + 8) });
    const kept = taller.manual_edits as { kept: number };
    await applyPlan(call, taller, `taller-${tag}`);
    const top = wb.max.y + 8 + 1;
    const r = await call("build_prepare", { recipe: roof(wmin, top, "minecraft:oak_planks") });
    const rop = await applyPlan(call, r, `roof2-${tag}`);
    const np = await call("part_define", { name: "tower roof", operation_id: rop.operation_id });
    await say(
      `Added two floors (${String(taller.changed_blocks)} blocks; kept ${kept.kept} you placed by hand) and redid the roof at y ${top} (${String(np.part_id)}).`,
    );
    return ended();
  }
  // stairs across the window's wall row
  const wp = await partNamed(call, "tower walls");
  const diff = await call("part_diff", { part_id: wp.part_id });
  const row = (diff.sample as { pos: Pos }[])[0]?.pos ?? { x: base.x, y: base.y + 3, z: base.z };
  const wb = wp.bounds as { min: Pos; max: Pos };
  const stairs = {
    version: 1,
    operations: [
      { type: "line", from: { x: wb.min.x, y: row.y, z: row.z }, to: { x: wb.max.x, y: row.y, z: row.z }, block: "minecraft:stone_brick_stairs[facing=south]" },
    ],
  };
  try {
    await call("build_prepare", { recipe: stairs });
    await say("The stairs were prepared without a conflict.");
  } catch (e) {
    if (!(e instanceof ToolError) || e.error.code !== "conflict") throw e;
    const d = e.error.details as { count: number; sample: { pos: Pos; actual: string }[] };
    const positions = d.sample.map((x) => `${x.pos.x} ${x.pos.y} ${x.pos.z} (${x.actual.replace(/\[.*$/, "")})`);
    await say(`Conflict: ${d.count} block(s) you changed by hand are where the stairs would go: ${positions.join(", ")}. Keep them or replace them?`);
  }
  return ended();
}
