import type { QuarterTurns } from "@mcb/blocks";

/**
 * An element of the dihedral group of the horizontal plane, acting as v ↦ R^turns · M^mirrorX · v,
 * where M negates x and R turns clockwise seen from above ((x, z) ↦ (−z, x)). y is untouched.
 */
export interface Orientation {
  readonly mirrorX: boolean;
  readonly turns: QuarterTurns;
}

/** A rigid frame: world = orientation(local) + offset. */
export interface Frame {
  readonly orientation: Orientation;
  readonly ox: number;
  readonly oy: number;
  readonly oz: number;
}

export const IDENTITY: Frame = Object.freeze({ orientation: Object.freeze({ mirrorX: false, turns: 0 }), ox: 0, oy: 0, oz: 0 });

function quarter(n: number): QuarterTurns {
  return (((n % 4) + 4) % 4) as QuarterTurns;
}

/** Rotation/mirror of a transform op as a group element; mirror z = mirror x then a half turn. */
export function orientationOf(rotateDegrees: number, mirror: "x" | "z" | undefined): Orientation {
  const turns = rotateDegrees / 90;
  if (mirror === undefined) return { mirrorX: false, turns: quarter(turns) };
  return { mirrorX: true, turns: quarter(turns + (mirror === "z" ? 2 : 0)) };
}

/** a ∘ b: apply b first. M·R^t = R^−t·M. */
export function composeOrientation(a: Orientation, b: Orientation): Orientation {
  return { mirrorX: a.mirrorX !== b.mirrorX, turns: quarter(a.turns + (a.mirrorX ? -b.turns : b.turns)) };
}

/** Applies the orientation to a horizontal vector. */
export function orientXZ(o: Orientation, x: number, z: number): [number, number] {
  let px = o.mirrorX ? -x : x;
  let pz = z;
  for (let i = 0; i < o.turns; i++) {
    const t = px;
    px = -pz;
    pz = t;
  }
  return [px, pz];
}

export function mapPoint(f: Frame, x: number, y: number, z: number): [number, number, number] {
  const [px, pz] = orientXZ(f.orientation, x, z);
  return [px + f.ox, y + f.oy, pz + f.oz];
}

/** parent ∘ child. */
export function composeFrame(parent: Frame, child: Frame): Frame {
  const [x, y, z] = mapPoint(parent, child.ox, child.oy, child.oz);
  return { orientation: composeOrientation(parent.orientation, child.orientation), ox: x, oy: y, oz: z };
}

export function translation(x: number, y: number, z: number): Frame {
  return { orientation: IDENTITY.orientation, ox: x, oy: y, oz: z };
}

/** p ↦ anchor + o(p − anchor) + translate. */
export function transformFrame(o: Orientation, anchor: { x: number; y: number; z: number }, translate: { x: number; y: number; z: number }): Frame {
  const [ax, az] = orientXZ(o, anchor.x, anchor.z);
  return { orientation: o, ox: anchor.x - ax + translate.x, oy: translate.y, oz: anchor.z - az + translate.z };
}

/**
 * A point mapper specialised to the orientation: a monomorphic closure per frame keeps the
 * per-block cost at a few integer operations.
 */
export function pointMapper(f: Frame): (x: number, y: number, z: number, out: Int32Array) => void {
  const { ox, oy, oz } = f;
  const [xx, zx] = orientXZ(f.orientation, 1, 0);
  const [xz, zz] = orientXZ(f.orientation, 0, 1);
  return (x, y, z, out) => {
    out[0] = xx * x + xz * z + ox;
    out[1] = y + oy;
    out[2] = zx * x + zz * z + oz;
  };
}

/**
 * Maps local x-intervals to world x-intervals when the frame keeps the x axis along ±x (no
 * quarter turn); null otherwise. `out` gets world x0 ≤ x1, y, z.
 */
export function spanMapper(f: Frame): ((x0: number, x1: number, y: number, z: number, out: Int32Array) => void) | null {
  const { ox, oy, oz } = f;
  const [xx, zx] = orientXZ(f.orientation, 1, 0);
  const [xz, zz] = orientXZ(f.orientation, 0, 1);
  if (zx !== 0) return null;
  return (x0, x1, y, z, out) => {
    const a = xx * x0 + xz * z + ox,
      b = xx * x1 + xz * z + ox;
    out[0] = a < b ? a : b;
    out[1] = a < b ? b : a;
    out[2] = y + oy;
    out[3] = zz * z + oz;
  };
}
