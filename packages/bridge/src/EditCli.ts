import { emit, type Out } from "./CliSupport.js";
import { submitPersonEdit } from "./EditInbox.js";
import type { WorldLocation } from "./EmbeddedWorld.js";
import { MAX_PERSON_EDIT } from "./PersonEdit.js";

export const EDIT_USAGE = `  mcb edit <x> <y> <z> <block>       a person's edit of the embedded world, as by hand (not an
  mcb edit --fill x1 y1 z1 x2 y2 z2 <block>   operation of ours: never undone by mcb, kept by rebuilds;
                                     at most ${MAX_PERSON_EDIT} blocks; works while mcb mcp or chat runs)`;

/** `mcb edit`: 0 done, 1 structured error, 2 usage. */
export async function runEditCommand(args: readonly string[], fill: boolean, state: WorldLocation, o: Out): Promise<number> {
  const numbers = args.slice(0, -1).map(Number);
  const block = args[args.length - 1];
  if (block === undefined || numbers.length !== (fill ? 6 : 3) || !numbers.every(Number.isSafeInteger)) {
    process.stderr.write(`usage:\n${EDIT_USAGE}\n`);
    return 2;
  }
  const [x1, y1, z1, x2 = x1, y2 = y1, z2 = z1] = numbers as [number, number, number, number?, number?, number?];
  const r = await submitPersonEdit(state, { min: { x: x1, y: y1, z: z1 }, max: { x: x2, y: y2, z: z2 }, state: block });
  return emit(r, o, (e) => {
    const where = e.blocks === 1 ? `at ${e.min.x} ${e.min.y} ${e.min.z}` : `in ${e.min.x} ${e.min.y} ${e.min.z} .. ${e.max.x} ${e.max.y} ${e.max.z}`;
    return `placed ${e.state} ${where} by hand: ${e.changed} of ${e.blocks} blocks changed (a person's edit: mcb never undoes it, and a rebuild keeps it)`;
  });
}
