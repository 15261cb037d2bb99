/**
 * One line per property that decides how a block sits, for material_describe: what `facing`,
 * `half`, `axis`, `shape`, `type`, `face`, `hanging`, `part` and `hinge` mean for this kind of
 * block (the same word means different things for stairs, ladders and furnaces).
 */
const HANGS_ON = /(^ladder$|_wall_torch$|_wall_sign$|_wall_banner$|^tripwire_hook$|_wall_hanging_sign$|_coral_wall_fan$)/;

export function propertyMeanings(id: string, names: readonly string[]): Record<string, string> {
  const name = id.replace(/^minecraft:/, "");
  const has = new Set(names);
  const out: Record<string, string> = {};
  const say = (prop: string, text: string): void => {
    if (has.has(prop)) out[prop] = text;
  };
  if (/_stairs$/.test(name)) {
    say("facing", "the side of the stair's tall back: you walk up towards it (a roof slope rising to the north faces north)");
    say("half", "bottom: the usual stair; top: upside down");
    say("shape", "straight, or inner_/outer_ left/right corners; computed from neighbouring stairs unless connections are pinned");
  } else if (/_slab$/.test(name)) {
    say("type", "bottom: the lower half of the block; top: the upper half; double: both (a full block)");
  } else if (HANGS_ON.test(name)) {
    say("facing", "points away from the block it hangs on: facing west hangs on the block to its east");
  } else if (/_door$/.test(name)) {
    say("facing", "the direction a player faces when walking through from the outside in (the side it opens away from)");
    say("half", "lower and upper: a door is two blocks, place both");
    say("hinge", "left or right: which side the hinge is on, seen looking towards facing");
  } else if (/_trapdoor$/.test(name)) {
    say("half", "bottom: lies in the lower half of its block when closed; top: in the upper half");
    say("facing", "the edge opposite the hinge points this way");
  } else if (/_bed$/.test(name)) {
    say("facing", "the direction from the foot to the head");
    say("part", "foot and head: a bed is two blocks, the head one step towards facing");
  } else if (has.has("face")) {
    say("face", "floor, wall or ceiling: the surface it is fixed to");
    say("facing", "with face=wall: points away from the wall; on floor or ceiling: the direction it is turned");
  } else {
    say("facing", "the side its front (face, opening or spout) points to");
  }
  say("axis", "the direction it runs: y upright, x east–west, z north–south");
  if (/lantern$/.test(name)) say("hanging", "true: hangs under a block; false: stands on one");
  if (!/_door$/.test(name) && !/_stairs$/.test(name) && !/_trapdoor$/.test(name)) say("half", "lower and upper: a two-block plant or block, place both");
  return out;
}
