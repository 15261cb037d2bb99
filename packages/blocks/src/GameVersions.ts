import { legacyTable, releaseTable } from "./RegistryData.js";

/**
 * Names for DataVersions (the number every save, chunk and schematic carries), from the generated
 * release table (minecraft-data's, releases from 1.9 on).
 */

/** The release with exactly this DataVersion, or undefined (a snapshot, or a version the table lacks). */
export function releaseOf(dataVersion: number): string | undefined {
  return releaseTable().find(([dv]) => dv === dataVersion)?.[1];
}

/**
 * A human name for a DataVersion: `1.21.1 (DataVersion 3955)`, or the releases around it for a
 * snapshot (`a snapshot between 26.1.2 and 26.2 (DataVersion 4850)`), or `newer than 26.3 …`.
 */
export function describeDataVersion(dataVersion: number): string {
  const table = releaseTable();
  const exact = releaseOf(dataVersion);
  if (exact !== undefined) return `${exact} (DataVersion ${dataVersion})`;
  const before = [...table].reverse().find(([dv]) => dv < dataVersion);
  const after = table.find(([dv]) => dv > dataVersion);
  if (before === undefined) return `older than ${table[0]![1]} (DataVersion ${dataVersion})`;
  if (after === undefined) return `newer than ${before[1]} (DataVersion ${dataVersion})`;
  return `a version between ${before[1]} and ${after[1]} (DataVersion ${dataVersion})`;
}

/** The DataVersion of a release name (`1.18.2` → 2975), or undefined. */
export function dataVersionOf(release: string): number | undefined {
  return releaseTable().find(([, name]) => name === release)?.[0];
}

let legacy: ReadonlyMap<number, string> | undefined;

/**
 * The 1.13 state of a numeric block of 1.12 and older (`id` 0..4095, `meta` 0..15), by the game's
 * flattening table; a metadata value the table lacks falls back to the id's `:0` entry, as the game
 * does. Undefined for an id the table lacks.
 */
export function legacyState(id: number, meta: number): string | undefined {
  if (legacy === undefined) {
    const m = new Map<number, string>();
    for (const [key, state] of legacyTable()) {
      const [i, d] = key.split(":").map(Number) as [number, number];
      m.set((i << 4) | d, state);
    }
    legacy = m;
  }
  return legacy.get((id << 4) | meta) ?? legacy.get(id << 4);
}
