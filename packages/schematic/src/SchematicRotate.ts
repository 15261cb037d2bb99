import { rotateState, type BlockRegistry, type QuarterTurns } from "@mcb/blocks";
import { canonicalSchematic, indexArray, type Schematic } from "./Schematic.js";

/**
 * Rotates clockwise seen from above by `turns` quarter turns about the paste anchor, with the
 * recipe convention (x, z) ↦ (−z, x): positions and the offset move, block states turn through the
 * registry (facing, axis, rotation, multi-face and the rest of `rotateState`).
 */
export function rotateSchematic(registry: BlockRegistry, s: Schematic, turns: QuarterTurns): Schematic {
  if (turns === 0) return s;
  const { width: w, height: h, length: l } = s;
  // Corners of the footprint relative to the anchor, rotated; the new minimum is the new offset.
  const corners = [
    [s.offset.x, s.offset.z],
    [s.offset.x + w - 1, s.offset.z + l - 1],
  ].map(([x, z]) => turn(x!, z!, turns));
  const minX = Math.min(corners[0]![0], corners[1]![0]);
  const minZ = Math.min(corners[0]![1], corners[1]![1]);
  const odd = turns % 2 === 1;
  const nw = odd ? l : w;
  const nl = odd ? w : l;
  const palette = s.palette.map((state) => rotateState(registry, registry.stateOf(state), turns).canonical);
  const blocks = indexArray(s.palette.length, s.blocks.length);
  for (let y = 0; y < h; y++) {
    for (let z = 0; z < l; z++) {
      for (let x = 0; x < w; x++) {
        const [rx, rz] = turn(s.offset.x + x, s.offset.z + z, turns);
        blocks[rx - minX + (rz - minZ) * nw + y * nw * nl] = s.blocks[x + z * w + y * w * l]!;
      }
    }
  }
  // Block entities move with their blocks; their data has no direction to turn (a sign's or banner's
  // rotation, a chest's facing are in the block state).
  const blockEntities = s.blockEntities
    .map((be) => {
      const [rx, rz] = turn(s.offset.x + be.x, s.offset.z + be.z, turns);
      return { ...be, x: rx - minX, z: rz - minZ };
    })
    .sort((a, b) => a.y - b.y || a.z - b.z || a.x - b.x);
  return canonicalSchematic({ ...s, width: nw, length: nl, offset: { x: minX, y: s.offset.y, z: minZ }, palette, blocks, blockEntities });
}

function turn(x: number, z: number, turns: number): [number, number] {
  for (let i = 0; i < turns; i++) {
    const t = x;
    x = 0 - z;
    z = t;
  }
  return [x, z];
}
