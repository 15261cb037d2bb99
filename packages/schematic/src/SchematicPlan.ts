import { type BlockRegistry, type QuarterTurns, type Result } from "@mcb/blocks";
import { planFromBlocks, type Plan } from "@mcb/recipe";
import { STRUCTURE_VOID } from "./read/StructureRead.js";
import type { Schematic } from "./Schematic.js";
import { rotateSchematic } from "./SchematicRotate.js";

export interface PasteInput {
  readonly target: { readonly x: number; readonly y: number; readonly z: number };
  readonly turns?: QuarterTurns;
  readonly maxBlocks?: number;
}

/**
 * The paste of a schematic as an ordinary plan: every position, air included (air in a schematic
 * clears what is there), at target + offset + local after the rotation about the target, block
 * entities with their data. Structure void positions are left out (the world keeps its block).
 */
export function schematicToPlan(registry: BlockRegistry, schematic: Schematic, input: PasteInput): Result<Plan> {
  const s = rotateSchematic(registry, schematic, input.turns ?? 0);
  const skip = s.palette.indexOf(STRUCTURE_VOID);
  let n = s.blocks.length;
  if (skip >= 0) for (const b of s.blocks) if (b === skip) n--;
  const x = new Int32Array(n), y = new Int32Array(n), z = new Int32Array(n), state = new Uint32Array(n);
  const bx = input.target.x + s.offset.x, by = input.target.y + s.offset.y, bz = input.target.z + s.offset.z;
  let i = 0, k = 0;
  for (let ly = 0; ly < s.height; ly++) {
    for (let lz = 0; lz < s.length; lz++) {
      for (let lx = 0; lx < s.width; lx++, i++) {
        if (s.blocks[i] === skip) continue;
        x[k] = bx + lx;
        y[k] = by + ly;
        z[k] = bz + lz;
        state[k++] = s.blocks[i]!;
      }
    }
  }
  const blockData = s.blockEntities.map((be) => ({ x: bx + be.x, y: by + be.y, z: bz + be.z, data: be.data }));
  return planFromBlocks(registry, { states: s.palette, blocks: { x, y, z, state }, blockData, ...(input.maxBlocks === undefined ? {} : { maxBlocks: input.maxBlocks }) });
}
