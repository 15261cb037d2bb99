import { fail, mcbError, ok, posKey, type Result } from "@mcb/blocks";
import type { PartRecord, TakenFrom, PartJournal } from "../store/Journal.js";
import { maskKeys, maskPoints, withMask } from "./PartMask.js";

/** At most this many parts in one take_over. */
export const MAX_TAKE_OVER = 16;

/**
 * build_apply's `take_over`: the active parts (by id or name) whose blocks the part named by
 * `part_name` may take when it is named. Checked before anything is written. Errors:
 * invalid_request (`reason: "take_over"`: not a list of 1..16 strings, or no part_name), not_found
 * (no such active part; the project's active part names are listed).
 */
export function resolveTakeOver(journal: PartJournal, projectId: string, takeOver: unknown, partName: unknown): Result<readonly string[]> {
  if (takeOver === undefined) return ok([]);
  if (!Array.isArray(takeOver) || takeOver.length === 0 || takeOver.length > MAX_TAKE_OVER || takeOver.some((t) => typeof t !== "string"))
    return fail(mcbError("invalid_request", `take_over must list 1..${MAX_TAKE_OVER} part ids or names`, { reason: "take_over", limit: MAX_TAKE_OVER }));
  if (partName === undefined)
    return fail(mcbError("invalid_request", "take_over moves blocks into the part that part_name names: give part_name too", { reason: "take_over" }));
  const active = journal.listParts(projectId).filter((p) => p.retired !== true);
  const ids: string[] = [];
  for (const t of takeOver as string[]) {
    const part = active.find((p) => p.partId === t) ?? active.find((p) => p.name === t);
    if (part === undefined)
      return fail(
        mcbError("not_found", `no active part ${JSON.stringify(t)} in this project to take over`, {
          reason: "take_over",
          part: t,
          active_parts: active.slice(0, 32).map((p) => p.name),
        }),
      );
    if (!ids.includes(part.partId)) ids.push(part.partId);
  }
  return ok(ids);
}

/**
 * A newly named part takes the positions it shares with the parts it was allowed to take over:
 * they leave those parts (a part left empty is retired) and the taker records where each came
 * from, so an undo can give them back exactly. Parts deleted meanwhile are skipped.
 */
export function takeOverBlocks(journal: PartJournal, taker: PartRecord, victimIds: readonly string[]): { taker: PartRecord; victims: PartRecord[] } {
  const keys = maskKeys(taker.mask);
  const takenFrom: TakenFrom[] = [];
  const victims: PartRecord[] = [];
  for (const id of victimIds) {
    const v = journal.getPart(id);
    if (v === null || v.retired === true || v.projectId !== taker.projectId) continue;
    const keep: [number, number, number][] = [];
    const taken: number[] = [];
    for (const p of maskPoints(v.mask)) keys.has(posKey(...p)) ? taken.push(...p) : keep.push(p);
    if (taken.length === 0) continue;
    takenFrom.push({ partId: id, mask: taken });
    victims.push(withMask(v, keep));
  }
  // A part that grows keeps what it took before: each undo gives back what was taken.
  return { taker: takenFrom.length === 0 ? taker : { ...taker, takenFrom: [...(taker.takenFrom ?? []), ...takenFrom] }, victims };
}

/** True when a retired part's name went to another active part (it cannot come back under it). */
function nameTaken(parts: Iterable<PartRecord>, p: PartRecord): boolean {
  if (p.retired !== true) return false;
  for (const o of parts) if (o.retired !== true && o.partId !== p.partId && o.name === p.name) return true;
  return false;
}

/** Positions held by active parts other than `except`. */
export function heldByOthers(parts: Iterable<PartRecord>, except: string): Set<string> {
  const held = new Set<string>();
  for (const o of parts) if (o.retired !== true && o.partId !== except) for (const k of maskKeys(o.mask)) held.add(k);
  return held;
}

/**
 * An undo of the taker restored `restored`: the positions it had taken go back to the parts it
 * took them from (where no other active part holds them now). Returns those parts, changed.
 */
export function giveBack(current: ReadonlyMap<string, PartRecord>, taker: PartRecord, restored: ReadonlySet<string>): PartRecord[] {
  if (taker.takenFrom === undefined) return [];
  const held = heldByOthers(current.values(), taker.partId);
  const kept = maskKeys(taker.mask); // a part that grew keeps what its other operations wrote: not given back
  const out: PartRecord[] = [];
  for (const entry of taker.takenFrom) {
    const v = current.get(entry.partId);
    if (v === undefined || nameTaken(current.values(), v)) continue;
    const own = maskKeys(v.mask);
    const back = maskPoints(entry.mask).filter(
      (p) => restored.has(posKey(...p)) && !held.has(posKey(...p)) && !own.has(posKey(...p)) && !kept.has(posKey(...p)),
    );
    if (back.length > 0) out.push(withMask(v, [...maskPoints(v.mask), ...back]));
  }
  return out;
}

/**
 * A redo of the taker (an undo of its undo) wrote `restored` again: the positions it had taken and
 * gave back move to it once more. Returns the parts they leave, changed.
 */
export function takeAgain(current: ReadonlyMap<string, PartRecord>, taker: PartRecord, restored: ReadonlySet<string>): PartRecord[] {
  if (taker.takenFrom === undefined) return [];
  const out: PartRecord[] = [];
  for (const entry of taker.takenFrom) {
    const v = current.get(entry.partId);
    if (v === undefined || v.retired === true) continue;
    const again = new Set(
      maskPoints(entry.mask)
        .map((p) => posKey(...p))
        .filter((k) => restored.has(k)),
    );
    const keep = maskPoints(v.mask).filter((p) => !again.has(posKey(...p)));
    if (keep.length * 3 !== v.mask.length) out.push(withMask(v, keep));
  }
  return out;
}
