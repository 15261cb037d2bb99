import { TAG, type NbtCompound } from "./NbtValue.js";

/** Block-entity data without the keys a position and type give (x, y, z, id, keepPacked; Pos, Id as some writers add). */
export function stripPosition(data: NbtCompound): NbtCompound {
  const drop = new Set(["x", "y", "z", "id", "keepPacked", "Pos", "Id"]);
  if (![...data.v.keys()].some((k) => drop.has(k))) return data;
  return { t: TAG.Compound, v: new Map([...data.v].filter(([k]) => !drop.has(k))) };
}
