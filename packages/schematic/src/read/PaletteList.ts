import { formatState } from "@mcb/blocks";
import { TAG, type NbtCompound } from "@mcb/nbt";
import { malformed } from "./FormatError.js";

/** A `{Name, Properties: {k: v}}` palette entry (litematic, vanilla structure) as a state string. */
export function stateOfEntry(c: NbtCompound, path: string): string {
  const name = c.v.get("Name");
  if (name === undefined || name.t !== TAG.String) throw malformed("needs Name, a string", path);
  const props = c.v.get("Properties");
  if (props === undefined) return name.v;
  if (props.t !== TAG.Compound) throw malformed("Properties must be a compound", path);
  const out: Record<string, string> = {};
  for (const [k, v] of props.v) {
    if (v.t !== TAG.String) throw malformed(`property ${JSON.stringify(k.slice(0, 32))} must be a string`, path);
    out[k] = v.v;
  }
  return formatState(name.v.includes(":") ? name.v : `minecraft:${name.v}`, out);
}
