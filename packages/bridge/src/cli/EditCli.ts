import type { Result } from "@mcb/blocks";
import { applyPersonEdit, MAX_PERSON_EDIT, notEmbedded, type PersonEditReport } from "../workspace/edits/PersonEdit.js";
import type { Invocation } from "./Invocation.js";
import type { Command } from "./Command.js";

export const editCommand: Command = {
  name: "edit",
  usage: `  mcb edit <x> <y> <z> <block>       a person's edit of the embedded world, as by hand (not an
  mcb edit --fill x1 y1 z1 x2 y2 z2 <block>   operation of ours: never undone by mcb, kept by rebuilds;
                                     at most ${MAX_PERSON_EDIT} blocks; works while mcb mcp, chat or serve runs);
                                     fences, panes, bars, walls and stairs join their neighbours as the
                                     game places them; --exact writes the state as given`,
  async run(c) {
    const fill = c.values.fill === true;
    const numbers = c.args.slice(0, -1).map(Number);
    const block = c.args[c.args.length - 1];
    if (block === undefined || !Number.isNaN(Number(block))) return c.usage("missing the block state, after the coordinates");
    if (numbers.length !== (fill ? 6 : 3) || !numbers.every(Number.isSafeInteger))
      return c.usage(`expected ${fill ? "six" : "three"} integer coordinates before the block`);
    const [x1, y1, z1, x2 = x1, y2 = y1, z2 = z1] = numbers as [number, number, number, number?, number?, number?];
    const request = { min: { x: x1, y: y1, z: z1 }, max: { x: x2, y: y2, z: z2 }, state: block, ...(c.values.exact === true ? { exact: true } : {}) };
    const t = c.location.target;
    // Refused before anything is opened (a server's port, a person's save).
    if (t.portUrl !== undefined || t.savePath !== undefined) return c.emit(notEmbedded(), () => "");
    // On its own, or run in the process holding the world (mcb mcp, chat, serve): it lands between that process's slices.
    return c.withWorkspace(async (w) => report(c, await applyPersonEdit(w, request)));
  },
};

function report(c: Invocation, r: Result<PersonEditReport>): number {
  return c.emit(r, (e) => {
    const where = e.blocks === 1 ? `at ${e.min.x} ${e.min.y} ${e.min.z}` : `in ${e.min.x} ${e.min.y} ${e.min.z} .. ${e.max.x} ${e.max.y} ${e.max.z}`;
    const joined =
      e.joined > 0 || e.neighbours_updated > 0
        ? `; ${e.joined} joined their neighbours as the game places them, ${e.neighbours_updated} neighbours joined back`
        : "";
    // What the world holds now: the state as it joined its neighbours, not as it was asked for.
    const placed = e.placed.length <= 2 ? e.placed.join(" and ") : `${e.placed.slice(0, 2).join(", ")} and ${e.placed.length - 2} more forms`;
    return `placed ${placed} ${where} by hand: ${e.changed} of ${e.blocks} blocks changed${joined} (a person's edit: mcb never undoes it, and a rebuild keeps it)`;
  });
}
