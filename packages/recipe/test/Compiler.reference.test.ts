import fc from "fast-check";
import { mirrorState, rotateState, type BlockState } from "@mcb/blocks";
import { describe, expect, it } from "vitest";
import type { Operation } from "../src/index.js";
import { BLOCKS, blockMap, compile, recipeArb, registry } from "./support.js";

type P = [number, number, number];
type Xf = { point: (p: P) => P; state: (s: BlockState) => BlockState };

const within = (v: number, a: number, b: number) => v >= Math.min(a, b) && v <= Math.max(a, b);
const excluded = (op: any, [x, y, z]: P): boolean =>
  (op.exclude ?? []).some((b: any) => within(x, b.min.x, b.max.x) && within(y, b.min.y, b.max.y) && within(z, b.min.z, b.max.z));

/**
 * The roof as the documentation states it: per column, the distance d to the nearest slope edge and
 * the inward directions of the edges at that distance; one inward direction is a straight stair
 * facing it, two perpendicular ones an outer corner (outer_right, raised quarter inward), opposite
 * or more a ridge slab; pitch 2 puts bottom slabs on even d.
 */
function referenceRoof(op: any): Array<[P, unknown]> {
  const out: Array<[P, unknown]> = [];
  const o = op.overhang ?? 1,
    pitch = op.pitch ?? 1;
  const [x0, x1] = [Math.min(op.min.x, op.max.x), Math.max(op.min.x, op.max.x)];
  const [z0, z1] = [Math.min(op.min.z, op.max.z), Math.max(op.min.z, op.max.z)];
  const axis = op.axis ?? (x1 - x0 >= z1 - z0 ? "x" : "z");
  const inward: Record<string, [number, number]> = { south: [0, 1], north: [0, -1], east: [1, 0], west: [-1, 0] };
  const name = (v: [number, number]) => Object.keys(inward).find((k) => inward[k]![0] === v[0] && inward[k]![1] === v[1])!;
  for (let x = x0 - o; x <= x1 + o; x++)
    for (let z = z0 - o; z <= z1 + o; z++) {
      if (op.style === "flat") {
        out.push([[x, op.y, z], `${op.slab}[type=bottom]`]);
        continue;
      }
      const edges: Array<[number, [number, number]]> = [];
      if (op.style === "hip" || axis === "x") edges.push([z - z0, [0, 1]], [z1 - z, [0, -1]]);
      if (op.style === "hip" || axis === "z") edges.push([x - x0, [1, 0]], [x1 - x, [-1, 0]]);
      const d = Math.min(...edges.map((e) => e[0]));
      const dirs = edges.filter((e) => e[0] === d).map((e) => e[1]);
      const y = pitch === 1 ? op.y + d : op.y + Math.floor(d / 2);
      const half = pitch === 2 && d % 2 === 0;
      const opposite = dirs.length === 2 && dirs[0]![0] === -dirs[1]![0] && dirs[0]![1] === -dirs[1]![1];
      if (half) out.push([[x, y, z], `${op.slab}[type=bottom]`]);
      else if (dirs.length >= 3 || opposite) out.push([[x, y, z], `${op.slab}[type=${pitch === 1 ? "bottom" : "top"}]`]);
      else if (dirs.length === 1) out.push([[x, y, z], `${op.stairs}[facing=${name(dirs[0]!)},shape=straight]`]);
      else {
        // facing f with outer_right raises f and clockwise(f): clockwise of (dx, dz) is (−dz, dx).
        const [a, b] = dirs as [[number, number], [number, number]];
        const f = -a[1] === b[0] && a[0] === b[1] ? a : b;
        out.push([[x, y, z], `${op.stairs}[facing=${name(f)},shape=outer_right]`]);
      }
      const end = axis === "x" ? x === x0 || x === x1 : z === z0 || z === z1;
      if (op.gable_block !== undefined && op.style === "gable" && d >= 0 && end) for (let fy = op.y; fy < y; fy++) out.push([[x, fy, z], op.gable_block]);
    }
  return out;
}

/**
 * A deliberately naive interpreter: membership predicates over bounding boxes, transforms as plain
 * function composition, a Map where later writes win. Palette positions are recorded as "palette".
 */
function reference(recipe: any): Map<string, string> {
  const reg = registry();
  const out = new Map<string, string>();
  const resolve = (b: unknown, xf: Xf): string =>
    typeof b === "string" ? xf.state(reg.stateOf((reg.resolveState(b) as any).value.canonical)).canonical : "palette";
  const put = (p: P, xf: Xf, state: string) => {
    const [x, y, z] = xf.point(p);
    out.set(`${x + 0},${y},${z + 0}`, state);
  };
  const range = (a: number, b: number) => Array.from({ length: Math.abs(b - a) + 1 }, (_, i) => Math.min(a, b) + i);
  const run = (ops: readonly Operation[], xf: Xf) => {
    for (const op of ops) {
      switch (op.type) {
        case "box":
        case "replace": {
          const xs = range(op.min.x, op.max.x),
            ys = range(op.min.y, op.max.y),
            zs = range(op.min.z, op.max.z);
          const s = resolve(op.block, xf);
          const tag = op.type === "replace" ? "|filtered" : "";
          const hollow = op.type === "box" ? op.hollow : undefined;
          for (const y of ys)
            for (const z of zs)
              for (const x of xs) {
                const side = x === xs[0] || x === xs.at(-1) || z === zs[0] || z === zs.at(-1);
                const face = side || y === ys[0] || y === ys.at(-1);
                if (excluded(op, [x, y, z])) continue;
                if (hollow === "walls" ? side : !hollow || face) put([x, y, z], xf, s + tag);
              }
          break;
        }
        case "blocks":
          for (const b of op.blocks) put([b.x, b.y, b.z], xf, resolve(b.block, xf));
          break;
        case "roof":
          for (const [p, b] of referenceRoof(op)) put(p, xf, resolve(b, xf));
          break;
        case "line": {
          const d = [op.to.x - op.from.x, op.to.y - op.from.y, op.to.z - op.from.z];
          const n = Math.max(...d.map(Math.abs));
          const s = resolve(op.block, xf);
          for (let i = 0; i <= n; i++) {
            const f = (a: number, k: number) => (n === 0 ? a : a + Math.floor((2 * i * d[k]! + n) / (2 * n)));
            put([f(op.from.x, 0), f(op.from.y, 1), f(op.from.z, 2)], xf, s);
          }
          break;
        }
        case "cylinder": {
          const r = op.radius;
          const inDisk = (u: number, v: number) => u * u + v * v <= r * r + r;
          const s = resolve(op.block, xf);
          for (let h = 0; h < op.height; h++)
            for (let u = -r; u <= r; u++)
              for (let v = -r; v <= r; v++) {
                if (!inDisk(u, v)) continue;
                if (op.hollow && inDisk(u + 1, v) && inDisk(u - 1, v) && inDisk(u, v + 1) && inDisk(u, v - 1)) continue;
                const c = op.center;
                const axis = op.axis ?? "y";
                const p: P = axis === "y" ? [c.x + u, c.y + h, c.z + v] : axis === "x" ? [c.x + h, c.y + u, c.z + v] : [c.x + u, c.y + v, c.z + h];
                if (!excluded(op, p)) put(p, xf, s);
              }
          break;
        }
        case "arch": {
          const along = op.axis;
          const across = along === "x" ? "z" : "x";
          const [u0, u1] = [Math.min(op.min[along], op.max[along]), Math.max(op.min[along], op.max[along])];
          const [y0, y1] = [Math.min(op.min.y, op.max.y), Math.max(op.min.y, op.max.y)];
          const a = (u1 - u0 + 1) / 2,
            b = y1 - y0 + 0.5,
            t = op.thickness ?? 1,
            c = (u0 + u1) / 2;
          const inside = (u: number, v: number, ea: number, eb: number) => ((u - c) / ea) ** 2 + (v / eb) ** 2;
          const s = resolve(op.block, xf);
          for (let y = y0; y <= y1; y++)
            for (let u = u0; u <= u1; u++) {
              if (inside(u, y - y0, a, b) > 1 + 1e-12) continue;
              if (a - t > 0 && b - t > 0 && inside(u, y - y0, a - t, b - t) < 1 - 1e-12) continue;
              for (const w of range(op.min[across], op.max[across])) put(along === "x" ? [u, y, w] : [w, y, u], xf, s);
            }
          break;
        }
        case "repeat":
          for (let k = 0; k < op.count; k++) {
            const shift = (p: P): P => [p[0] + k * op.offset.x, p[1] + k * op.offset.y, p[2] + k * op.offset.z];
            run(op.operations, { point: (p) => xf.point(shift(p)), state: xf.state });
          }
          break;
        case "transform": {
          const a = op.anchor ?? { x: 0, y: 0, z: 0 };
          const t = op.translate ?? { x: 0, y: 0, z: 0 };
          const turns = (op.rotate ?? 0) / 90;
          const local = (p: P): P => {
            let x = p[0] - a.x,
              z = p[2] - a.z;
            if (op.mirror === "x") x = -x;
            if (op.mirror === "z") z = -z;
            for (let i = 0; i < turns; i++) [x, z] = [-z, x];
            return [x + a.x + t.x, p[1] + t.y, z + a.z + t.z];
          };
          const localState = (s: BlockState) => rotateState(reg, op.mirror ? mirrorState(reg, s, op.mirror) : s, turns as 0 | 1 | 2 | 3);
          run(op.operations, { point: (p) => xf.point(local(p)), state: (s) => xf.state(localState(s)) });
          break;
        }
        default: {
          const unhandled: never = op; // a new operation needs its reference here too
          throw new Error(`the reference has no operation ${JSON.stringify(unhandled)}`);
        }
      }
    }
  };
  run(recipe.operations, { point: (p) => p, state: (s) => s });
  return out;
}

describe("compiler against a naive reference interpreter", () => {
  it("produces the same positions, states and filtered positions (property)", () => {
    const paletteStates = new Set<string>();
    fc.assert(
      fc.property(recipeArb, (recipe) => {
        const plan = compile(recipe);
        const ours = blockMap(plan);
        const filtered = new Set<string>();
        const { x, y, z, length, filter } = plan.runs;
        for (let r = 0; r < length.length; r++) if (filter[r] !== 0) for (let i = 0; i < length[r]!; i++) filtered.add(`${x[r]! + i},${y[r]},${z[r]}`);
        const expected = reference(recipe);
        expect(new Set(ours.keys())).toEqual(new Set(expected.keys()));
        for (const [key, want] of expected) {
          const [state, tag] = want.split("|");
          expect(filtered.has(key)).toBe(tag === "filtered");
          if (state === "palette") paletteStates.add(ours.get(key)!.replace(/\[.*$/, ""));
          else expect(ours.get(key), key).toBe(state);
        }
      }),
      { numRuns: 300 },
    );
    expect([...paletteStates].every((id) => id === "minecraft:stone_bricks" || id === "minecraft:oak_stairs")).toBe(true);
    expect(BLOCKS.length).toBeGreaterThan(0);
  });
});
