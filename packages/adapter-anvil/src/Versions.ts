import mcData from "minecraft-data";
import type { BlockRegistry } from "@mcb/blocks";
import type { ChunkVersions } from "./ChunkCodec.js";

/**
 * The DataVersions whose chunks hold exactly the registry's blocks: the registry's own and those
 * of its patch releases (same protocol, e.g. 26.1, 26.1.1 and 26.1.2), per minecraft-data.
 */
export function compatibleDataVersions(minecraftVersion: string, dataVersion: number): ChunkVersions {
  const all = mcData.versions.pc as readonly { minecraftVersion: string; dataVersion?: number; version: number }[];
  const own = all.find((v) => v.dataVersion === dataVersion) ?? all.find((v) => v.minecraftVersion === minecraftVersion);
  const same = own === undefined ? [] : all.filter((v) => v.version === own.version && v.dataVersion !== undefined && v.dataVersion >= dataVersion);
  const maxDataVersion = Math.max(dataVersion, ...same.map((v) => v.dataVersion!));
  return { dataVersion, maxDataVersion };
}

/** A state in the registry's canonical form (defaults filled in), unknown ones as they are; cached. */
export function canonicalizer(registry: BlockRegistry): (state: string) => string {
  const cache = new Map<string, string>();
  return (state) => {
    let c = cache.get(state);
    if (c === undefined) {
      const r = registry.resolveState(state);
      cache.set(state, (c = r.ok ? r.value.canonical : state));
    }
    return c;
  };
}
