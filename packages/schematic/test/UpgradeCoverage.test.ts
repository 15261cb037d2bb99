import mcData from "minecraft-data";
import { describe, expect, it } from "vitest";
import { formatState, legacyState, type BlockRegistry } from "@mcb/blocks";
import { BLOCK_UPGRADES, upgradeState, type BlockUpgrade } from "@mcb/blocks";
import { registry } from "../../blocks/test/registry.js";

interface RawState {
  readonly name: string;
  readonly type: string;
  readonly num_values: number;
  readonly values?: readonly string[];
}

/**
 * Every state of one release's blocks, from minecraft-data (an independent dump of each game
 * version). Old releases list an int property's size without its values: they are taken from the
 * registry's property of that name and size (distance counts from 1, age from 0 …).
 */
function statesOf(release: string, reg: BlockRegistry): string[] {
  const d = mcData(release)!;
  const out: string[] = [];
  for (const b of d.blocksArray) {
    const raw = ((b.states ?? []) as RawState[]).map((s) => {
      if (s.type === "bool") return { name: s.name, values: ["true", "false"] };
      if (s.values !== undefined) return { name: s.name, values: s.values.map(String) };
      const own = reg.blockTypes.get(`minecraft:${b.name}`)?.properties.find((p) => p.name === s.name && p.values.length === s.num_values);
      const any = [...reg.blockTypes.values()].flatMap((t) => t.properties).find((p) => p.name === s.name && p.values.length === s.num_values);
      return { name: s.name, values: [...((own ?? any)?.values ?? Array.from({ length: s.num_values }, (_, i) => String(i)))] };
    });
    const count = raw.reduce((n, s) => n * s.values.length, 1);
    for (let o = 0; o < count; o++) {
      const props: Record<string, string> = {};
      let rest = o;
      for (let i = raw.length - 1; i >= 0; i--) {
        props[raw[i]!.name] = raw[i]!.values[rest % raw[i]!.values.length]!;
        rest = Math.floor(rest / raw[i]!.values.length);
      }
      out.push(formatState(`minecraft:${b.name}`, props));
    }
  }
  return out;
}

/** The releases minecraft-data has block data for, from 1.13 (the flattening) to 26.1, one per distinct dump. */
function releases(): { name: string; dataVersion: number }[] {
  const seen = new Set<string>();
  const out: { name: string; dataVersion: number }[] = [];
  for (const v of [...mcData.versions.pc]
    .filter((x) => /^\d+\.\d+(\.\d+)?$/.test(x.minecraftVersion) && (x.dataVersion ?? 0) >= 1519)
    .sort((a, b) => a.dataVersion! - b.dataVersion!)) {
    const d = mcData(v.minecraftVersion);
    if (d?.blocksArray === undefined || seen.has(d.version.minecraftVersion!)) continue;
    seen.add(d.version.minecraftVersion!);
    out.push({ name: d.version.minecraftVersion!, dataVersion: d.version.dataVersion! });
  }
  return out;
}

/** The first states (per release) that do not upgrade into the registry with `table`. */
function unresolved(reg: BlockRegistry, table: readonly BlockUpgrade[]): { release: string; states: number; failing: string[] }[] {
  return releases().map(({ name, dataVersion }) => {
    const failing: string[] = [];
    const states = statesOf(name, reg);
    for (const s of states) {
      const up = upgradeState(s, dataVersion, reg.dataVersion, table).state;
      if (!reg.resolveState(up).ok && failing.length < 5) failing.push(`${s} → ${up}`);
    }
    return { release: name, states: states.length, failing };
  });
}

describe("upgrades from every release since 1.13 to 26.2 (minecraft-data's block states)", () => {
  it("every state of every release from 1.13 to 26.1 upgrades into a state of the 26.2 registry", { timeout: 120_000 }, () => {
    const r = unresolved(registry(), BLOCK_UPGRADES);
    expect(r.length).toBeGreaterThanOrEqual(30);
    expect(r.reduce((n, x) => n + x.states, 0)).toBeGreaterThan(600_000);
    expect(r.filter((x) => x.failing.length > 0)).toEqual([]);
  });

  it("a planted gap in the table (no grass → short_grass) is caught for every release before 1.20.3", { timeout: 120_000 }, () => {
    const gap = BLOCK_UPGRADES.filter((u) => u.what !== "minecraft:grass → minecraft:short_grass");
    const r = unresolved(registry(), gap);
    const caught = r.filter((x) => x.failing.some((f) => f.startsWith("minecraft:grass →")));
    expect(caught.map((x) => x.release)).toEqual(r.filter((x) => mcData(x.release)!.version.dataVersion! < 3698).map((x) => x.release));
  });

  it("every numeric block of 1.12 (the flattening table, 1,682 id:metadata pairs) upgrades into a state of the 26.2 registry", () => {
    let n = 0;
    for (let id = 0; id < 256; id++)
      for (let meta = 0; meta < 16; meta++) {
        const s = legacyState(id, meta);
        if (s === undefined) continue;
        n++;
        const up = upgradeState(s, 1519, registry().dataVersion).state;
        expect(registry().resolveState(up).ok, `${id}:${meta} ${s} → ${up}`).toBe(true);
      }
    expect(n).toBeGreaterThanOrEqual(1682); // every pair of the table, and the other metadata of its ids (they fall back to :0)
  });
});
