import { formatState } from "@mcb/blocks";
import { TAG, type NbtValue } from "@mcb/nbt";
import { upgradeState } from "@mcb/blocks";
import type { ChunkVersions } from "./ChunkVersions.js";

/** What a chunk decoder calls when the data is malformed: throws `corrupt_chunk` naming the chunk. */
export type Corrupt = (why: string) => never;

export function int(v: NbtValue | undefined): number | undefined {
  return v?.t === TAG.Int || v?.t === TAG.Byte || v?.t === TAG.Short ? v.v : undefined;
}

export function str(v: NbtValue | undefined): string | undefined {
  return v?.t === TAG.String ? v.v : undefined;
}

/** Upgraded states by (DataVersion, state), per set of versions: a save repeats a few hundred states in every section. */
const upgraded = new WeakMap<ChunkVersions, Map<string, string>>();
const MAX_UPGRADED = 1 << 16;

/** A state written at DataVersion `from`, upgraded to the registry's (when older) and made canonical (each distinct one computed once). */
export function upgrader(versions: ChunkVersions): (state: string, from: number) => string {
  let cache = upgraded.get(versions);
  if (cache === undefined) upgraded.set(versions, (cache = new Map()));
  const memo = cache;
  return (state, from) => {
    const key = `${from}|${state}`;
    let out = memo.get(key);
    if (out !== undefined) return out;
    const up = from < versions.dataVersion ? upgradeState(state, from, versions.dataVersion).state : state;
    out = versions.canonical === undefined ? up : versions.canonical(up);
    if (memo.size >= MAX_UPGRADED) memo.clear();
    memo.set(key, out);
    return out;
  };
}

/** A section's palette (`{Name, Properties}` compounds, every layout's form) as states written at `dv`, upgraded. */
export function paletteStates(
  entries: readonly NbtValue[],
  y: number,
  dv: number,
  upgrade: (state: string, from: number) => string,
  corrupt: Corrupt,
): string[] {
  return entries.map((e, k) => {
    if (e.t !== TAG.Compound) return corrupt(`section ${y}: palette entry ${k} is not a compound`);
    const name = str(e.v.get("Name"));
    if (name === undefined) return corrupt(`section ${y}: palette entry ${k} has no Name`);
    const props: Record<string, string> = {};
    const p = e.v.get("Properties");
    if (p?.t === TAG.Compound) for (const [pk, pv] of p.v) props[pk] = str(pv) ?? corrupt(`section ${y}: property ${pk} is not a string`);
    return upgrade(formatState(name, props), dv);
  });
}
