import { Interner, fail, mcbError, ok, type BlockRegistry, type Result } from "@mcb/blocks";
import { planFromBlocks, type Plan } from "@mcb/recipe";
import { z } from "zod";
import { brushPreviewPng } from "./BrushPreview.js";
import { MAX_SCAN_LEVELS, type ScannedColumn } from "./SurfaceScan.js";
import { naturalFilter } from "./TilePlan.js";
import { Column, yCoord } from "./TerrainSchema.js";

export const BrushSchema = z
  .strictObject({
    action: z.enum(["raise", "lower", "flatten", "smooth"]).describe("action"),
    center: Column.describe("centre"),
    radius: z.number().int().min(1).max(24).describe("columns"),
    amount: z.number().int().min(1).max(32).optional().describe("raise/lower"),
    target_y: yCoord.optional().describe("flatten level"),
    strength: z.number().min(0).max(1).optional().describe("0..1, default 1"),
    soft_edge: z.number().min(0).max(1).optional().describe("default 0.5"),
    y_range: z.strictObject({ min: yCoord.describe("lowest"), max: yCoord.describe("highest") }).describe("≤ 80 levels"),
    preserve: z.array(Column).max(256).optional().describe("kept columns"),
  })
  .describe("brush");
export type Brush = z.infer<typeof BrushSchema>;

/** Validates a brush. Errors: invalid_request with the field. */
export function parseBrush(input: unknown): Result<Brush> {
  const p = BrushSchema.safeParse(input);
  if (!p.success) {
    const i = p.error.issues[0];
    return fail(mcbError("invalid_request", `invalid brush${i ? ` at ${i.path.join(".") || "(root)"}: ${i.message}` : ""}`, { reason: "schema" }));
  }
  const b = p.data;
  if ((b.action === "raise" || b.action === "lower") && b.amount === undefined)
    return fail(mcbError("invalid_request", `${b.action} needs amount`, { reason: "amount" }));
  if (b.action === "flatten" && b.target_y === undefined) return fail(mcbError("invalid_request", "flatten needs target_y", { reason: "target_y" }));
  if (b.y_range.max < b.y_range.min || b.y_range.max - b.y_range.min + 1 > MAX_SCAN_LEVELS)
    return fail(mcbError("invalid_request", `y_range must be ordered and span at most ${MAX_SCAN_LEVELS} levels`, { reason: "y_range" }));
  return ok(b);
}

/** Columns the brush covers, row by row. */
export function brushColumns(b: Brush): { x: number; z: number }[] {
  const out: { x: number; z: number }[] = [];
  for (let dz = -b.radius; dz <= b.radius; dz++)
    for (let dx = -b.radius; dx <= b.radius; dx++) if (dx * dx + dz * dz <= b.radius * b.radius) out.push({ x: b.center.x + dx, z: b.center.z + dz });
  return out;
}

/** Weight at distance d: 1 inside (1 − soft) × r, smoothstep to 0 at r, times strength. */
export function brushWeight(b: Brush, d: number): number {
  const soft = b.soft_edge ?? 0.5;
  const inner = b.radius * (1 - soft);
  let w = 1;
  if (d > inner) {
    const t = Math.min(1, (d - inner) / Math.max(1e-9, b.radius - inner));
    w = 1 - t * t * (3 - 2 * t);
  }
  return w * (b.strength ?? 1);
}

export interface BrushResult {
  /** Null when nothing would change ("empty"). */
  readonly plan: Plan | null;
  readonly columns: { readonly scanned: number; readonly changed: number; readonly skipped: Readonly<Record<string, number>> };
  readonly raised: number;
  readonly lowered: number;
  /** Before | after | delta, one pixel block per column. */
  readonly png: Buffer;
}

/**
 * Turns a scan into a relative edit: new surface heights per column (raise/lower by amount ×
 * weight, flatten towards target_y, smooth towards the 3×3 mean of the scanned surface), then the
 * writes that move each surface (the old surface block on top, the block under it as fill, air
 * above, cover cleared). The scanned surface and the level above it become read dependencies, so a
 * change there after the scan is a conflict at apply, never overwritten.
 */
export function planBrush(registry: BlockRegistry, b: Brush, scan: readonly ScannedColumn[]): Result<BrushResult> {
  const preserve = new Set((b.preserve ?? []).map((c) => `${c.x},${c.z}`));
  const byKey = new Map(scan.map((c) => [`${c.x},${c.z}`, c]));
  const skipped: Record<string, number> = {};
  const target = new Map<string, number>();
  for (const c of scan) {
    const key = `${c.x},${c.z}`;
    if (c.kind !== "ground" || preserve.has(key)) {
      const why = c.kind !== "ground" ? c.kind : "preserved";
      skipped[why] = (skipped[why] ?? 0) + 1;
      continue;
    }
    const w = brushWeight(b, Math.sqrt((c.x - b.center.x) ** 2 + (c.z - b.center.z) ** 2));
    let next = c.surfaceY;
    if (b.action === "raise") next = c.surfaceY + Math.round(b.amount! * w);
    else if (b.action === "lower") next = c.surfaceY - Math.round(b.amount! * w);
    else if (b.action === "flatten") next = Math.round(c.surfaceY + (b.target_y! - c.surfaceY) * w);
    else {
      let sum = 0,
        n = 0;
      for (let dz = -1; dz <= 1; dz++)
        for (let dx = -1; dx <= 1; dx++) {
          const nb = byKey.get(`${c.x + dx},${c.z + dz}`);
          if (nb !== undefined && nb.kind === "ground") ((sum += nb.surfaceY), n++);
        }
      next = Math.round(c.surfaceY + (sum / n - c.surfaceY) * w);
    }
    // The new surface stays inside the scanned window (the writes must be positions we read).
    next = Math.min(b.y_range.max - 1, Math.max(b.y_range.min + 1, next));
    target.set(key, next);
  }
  const states = new Interner();
  states.id("minecraft:air");
  const xs: number[] = [],
    ys: number[] = [],
    zs: number[] = [],
    st: number[] = [];
  const put = (x: number, y: number, z: number, s: string) => (xs.push(x), ys.push(y), zs.push(z), st.push(states.id(s)));
  const deps: { x: number; y: number; z: number }[] = [];
  let raised = 0,
    lowered = 0,
    changed = 0;
  for (const c of scan) {
    const next = target.get(`${c.x},${c.z}`);
    if (next === undefined) continue;
    deps.push({ x: c.x, y: c.surfaceY, z: c.z }, { x: c.x, y: Math.max(c.surfaceY, c.coverTopY) + 1, z: c.z });
    if (next === c.surfaceY) continue;
    changed++;
    if (next > c.surfaceY) {
      raised++;
      const fill = c.belowState ?? c.surfaceState;
      for (let y = c.surfaceY; y < next; y++) put(c.x, y, c.z, fill);
      put(c.x, next, c.z, c.surfaceState);
      for (let y = next + 1; y <= c.coverTopY; y++) put(c.x, y, c.z, "minecraft:air"); // rest of a tall plant
    } else {
      lowered++;
      put(c.x, next, c.z, c.surfaceState);
      for (let y = next + 1; y <= c.surfaceY; y++) put(c.x, y, c.z, "minecraft:air");
      for (let y = c.surfaceY + 1; y <= c.coverTopY; y++) put(c.x, y, c.z, "minecraft:air");
    }
  }
  const png = brushPreviewPng(b, scan, target);
  const columns = { scanned: scan.length, changed, skipped };
  if (xs.length === 0) return ok({ plan: null, columns, raised, lowered, png });
  const filter = naturalFilter(states.values);
  const plan = planFromBlocks(registry, {
    states: states.values,
    filters: [filter],
    blocks: { x: Int32Array.from(xs), y: Int32Array.from(ys), z: Int32Array.from(zs), state: Uint32Array.from(st), filter: new Uint16Array(xs.length).fill(1) },
    dependencies: deps,
  });
  if (!plan.ok) return plan;
  return ok({ plan: plan.value, columns, raised, lowered, png });
}
