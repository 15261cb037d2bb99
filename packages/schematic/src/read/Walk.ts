import { NbtReader } from "@mcb/nbt";
import { TAG, TAG_NAMES, stripPosition, type NbtCompound, type TagId } from "@mcb/nbt";
import { malformed } from "./FormatError.js";

/** A compound's fields by name: each one's tag and the offset of its value. */
export type Fields = ReadonlyMap<string, { readonly type: TagId; readonly offset: number }>;

/** Records the fields of the compound the reader stands in (skipping their values). */
export function fields(r: NbtReader, path: string): Fields {
  const out = new Map<string, { type: TagId; offset: number }>();
  r.compound((type, name) => {
    if (out.has(name)) throw malformed("a field is repeated", `${path}.${name}`);
    out.set(name, { type, offset: r.offset });
    r.skip(type);
  });
  return out;
}

/** Moves to field `name` if present with tag `type`; a field of another tag is an error. */
export function seek(r: NbtReader, f: Fields, name: string, type: TagId, path: string, required = true): boolean {
  const e = f.get(name);
  if (e === undefined) {
    if (required) throw malformed("missing", `${path}.${name}`);
    return false;
  }
  if (e.type !== type) throw malformed(`expected ${TAG_NAMES[type]}, found ${TAG_NAMES[e.type]}`, `${path}.${name}`);
  r.seek(e.offset);
  return true;
}

export function intField(r: NbtReader, f: Fields, name: string, path: string): number {
  seek(r, f, name, TAG.Int, path);
  return r.i32();
}

/** An unsigned short dimension (Sponge Width/Height/Length), at least 1. */
export function dimension(r: NbtReader, f: Fields, name: string, path: string): number {
  seek(r, f, name, TAG.Short, path);
  const v = r.i16() & 0xffff;
  if (v === 0) throw malformed("must be at least 1", `${path}.${name}`);
  return v;
}

/** Calls `each` with every element of a list of compounds (decoded; for small entries). */
export function eachCompound(r: NbtReader, path: string, each: (c: NbtCompound, i: number) => void): void {
  const { elem, length } = r.listHeader();
  if (length === 0) return;
  if (elem !== TAG.Compound) throw malformed(`expected a list of compounds, found a list of ${TAG_NAMES[elem]}`, path);
  for (let i = 0; i < length; i++) each(r.compoundValue(), i);
}

/** Splits a raw block entity compound into position, id and data; `dataKey` (v3) holds the data. */
export function splitBlockEntity(c: NbtCompound, path: string, dataKey: string | null): { pos: [number, number, number]; id: string; data: NbtCompound } {
  const pos = c.v.get("Pos");
  if (pos === undefined || pos.t !== TAG.IntArray || pos.v.length !== 3) throw malformed("needs Pos, an int array of 3", path);
  const idTag = c.v.get("Id") ?? c.v.get("id");
  if (idTag === undefined || idTag.t !== TAG.String) throw malformed("needs Id, a string", path);
  let data: NbtCompound;
  if (dataKey !== null) {
    const d = c.v.get(dataKey);
    if (d !== undefined && d.t !== TAG.Compound) throw malformed(`${dataKey} must be a compound`, path);
    data = d ?? { t: TAG.Compound, v: new Map() };
  } else data = { t: TAG.Compound, v: new Map([...c.v].filter(([k]) => k !== "Pos" && k !== "Id" && k !== "id" && k !== "ContentVersion")) };
  return { pos: [pos.v[0]!, pos.v[1]!, pos.v[2]!], id: idTag.v, data: stripPosition(data) };
}

/** Counts a list of entity compounds by type id (`Id`, `id`, or inside `nbt`/`Data`). */
export function countEntities(r: NbtReader, path: string, into: Map<string, number>): void {
  eachCompound(r, path, (c) => {
    const id = c.v.get("Id") ?? c.v.get("id") ?? inner(c, "nbt") ?? inner(c, "Data");
    const name = id?.t === TAG.String ? id.v : "(unknown)";
    into.set(name, (into.get(name) ?? 0) + 1);
  });
}

function inner(c: NbtCompound, key: string) {
  const n = c.v.get(key);
  return n?.t === TAG.Compound ? n.v.get("id") : undefined;
}
