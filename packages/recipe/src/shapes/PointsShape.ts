import type { Box3 } from "@mcb/blocks";
import type { Put, Shape } from "./Shape.js";

/** Listed positions (x, y, z triples), each once, emitted in the order given. */
export function pointsShape(xyz: Int32Array): Shape {
  if (xyz.length === 0 || xyz.length % 3 !== 0) throw new Error("invariant: a points shape holds at least one x, y, z triple");
  const b = { minX: xyz[0]!, minY: xyz[1]!, minZ: xyz[2]!, maxX: xyz[0]!, maxY: xyz[1]!, maxZ: xyz[2]! };
  for (let i = 3; i < xyz.length; i += 3) {
    b.minX = Math.min(b.minX, xyz[i]!);
    b.maxX = Math.max(b.maxX, xyz[i]!);
    b.minY = Math.min(b.minY, xyz[i + 1]!);
    b.maxY = Math.max(b.maxY, xyz[i + 1]!);
    b.minZ = Math.min(b.minZ, xyz[i + 2]!);
    b.maxZ = Math.max(b.maxZ, xyz[i + 2]!);
  }
  const bounds: Box3 = b;
  return {
    bounds,
    count: xyz.length / 3,
    emit(put: Put): void {
      for (let i = 0; i < xyz.length; i += 3) put(xyz[i]!, xyz[i + 1]!, xyz[i + 2]!);
    },
  };
}
