import { formatState } from "@mcb/blocks";
import { TAG, upgradeState, type NbtValue } from "@mcb/schematic";
import type { ChunkVersions } from "./ChunkCodec.js";

/** What a chunk decoder calls when the data is malformed: throws `corrupt_chunk` naming the chunk. */
export type Corrupt = (why: string) => never;

export function int(v: NbtValue | undefined): number | undefined {
  return v?.t === TAG.Int || v?.t === TAG.Byte || v?.t === TAG.Short ? v.v : undefined;
}

export function str(v: NbtValue | undefined): string | undefined {
  return v?.t === TAG.String ? v.v : undefined;
}

/** A state written at DataVersion `from`, upgraded to the registry's (when older) and made canonical. */
export function upgrader(versions: ChunkVersions): (state: string, from: number) => string {
  return (state, from) => {
    const up = from < versions.dataVersion ? upgradeState(state, from, versions.dataVersion).state : state;
    return versions.canonical === undefined ? up : versions.canonical(up);
  };
}

/** A section's palette (`{Name, Properties}` compounds, every layout's form) as states written at `dv`, upgraded. */
export function paletteStates(entries: readonly NbtValue[], y: number, dv: number, upgrade: (state: string, from: number) => string, corrupt: Corrupt): string[] {
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
