import { createBlockRegistry, describeDataVersion, fail, mcbError, minecraftVersions, ok, releaseOf, type BlockRegistry, type Result } from "@mcb/blocks";
import type { ChunkVersions } from "./ChunkVersions.js";

/**
 * Which saves mcb reads and writes, decided once from level.dat's DataVersion (docs/SAVES.md
 * "Which saves"):
 * - a release this build has a registry for (26.1 to 26.1.2, 26.2): read and written with that
 *   release's blocks;
 * - anything else is read, never written: older saves (1.18 to 1.21.x, and the `Level` layout of
 *   1.13–1.17 and the numeric ids of 1.12 and older) with their blocks upgraded to the registry's
 *   names, newer ones (26.3 …) and development versions with their states as they are (unknown
 *   ones kept). Writes are refused up front, with the reason.
 */
export type SaveAccess =
  | { readonly mode: "edit" }
  | {
      readonly mode: "read";
      readonly reason: "older" | "newer" | "between";
      /** What the person is told, with what to do. */
      readonly message: string;
    };

export interface SaveVersion {
  readonly registry: BlockRegistry;
  readonly access: SaveAccess;
  /** level.dat's DataVersion and the release's name (level.dat's `Version.Name`, else from the table). */
  readonly dataVersion: number;
  readonly release: string;
}

/**
 * The registry and access for a save of `dataVersion` (null: a new save, made in `asked` or the
 * newest registry; `name`: level.dat's Version.Name, if any). `asked` (`--mc-version`) picks the
 * registry a read-only save is read with; for a save mcb edits it must be of the save's own
 * release (else `version_mismatch`: writing another version's blocks into it would damage it).
 */
export function saveVersionOf(dataVersion: number | null, name: string | undefined, asked: BlockRegistry | undefined): Result<SaveVersion> {
  if (dataVersion === null) {
    const registry = asked === undefined ? createBlockRegistry() : ok(asked);
    return registry.ok
      ? ok({ registry: registry.value, access: { mode: "edit" }, dataVersion: registry.value.dataVersion, release: registry.value.minecraftVersion })
      : registry;
  }
  const all = minecraftVersions();
  const own = all.find((v) => dataVersion >= v.dataVersion && dataVersion <= v.maxDataVersion);
  const named = name !== undefined && name.length > 0;
  const release = named ? name.slice(0, 40) : (releaseOf(dataVersion) ?? `DataVersion ${dataVersion}`);
  const described = `Minecraft ${named ? `${release} (DataVersion ${dataVersion})` : describeDataVersion(dataVersion)}`;
  if (own !== undefined) {
    if (asked !== undefined && asked.releases[own.version] === undefined)
      return fail(
        mcbError(
          "version_mismatch",
          `this save is ${described}: mcb edits it with its own version's blocks (${Object.keys(own.releases).join(", ")}), not ${asked.minecraftVersion}'s; leave out --mc-version`,
          { reason: "save_version", data_version: dataVersion },
        ),
      );
    const registry = asked === undefined ? createBlockRegistry({ version: own.version }) : ok(asked);
    return registry.ok ? ok({ registry: registry.value, access: { mode: "edit" }, dataVersion, release }) : registry;
  }
  const registry = asked === undefined ? createBlockRegistry() : ok(asked);
  if (!registry.ok) return registry;
  const newest = all.at(-1)!,
    oldest = all[0]!;
  const writes = all.map((v) => v.version).join(" and ");
  const access: SaveAccess =
    dataVersion > newest.maxDataVersion
      ? {
          mode: "read",
          reason: "newer",
          message: `this save is ${described}, newer than this build writes (${writes}): it is open read-only, blocks this build does not know are kept as they are; update mcb to edit it`,
        }
      : dataVersion < oldest.dataVersion
        ? {
            mode: "read",
            reason: "older",
            message: `this save is ${described}, older than the versions mcb writes (${writes}): it is open read-only (writing would need the game's own upgrade of its block entities, entities and items), its blocks read as ${registry.value.minecraftVersion}'s; open and save it once in Minecraft ${newest.version}, or copy blocks out with mcb schem export`,
          }
        : {
            mode: "read",
            reason: "between",
            message: `this save is ${described}, a version mcb does not write (it writes ${writes}): it is open read-only; open and save it once in Minecraft ${newest.version} to edit it`,
          };
  return ok({ registry: registry.value, access, dataVersion, release });
}

/** What this build reads and writes (`mcb doctor`): the releases it edits, and the saves it reads. */
export function supportedVersions(): {
  readonly default: string;
  readonly writes: readonly { readonly version: string; readonly releases: readonly { readonly release: string; readonly data_version: number }[] }[];
  readonly reads: readonly string[];
} {
  const all = minecraftVersions();
  const newest = all.at(-1)!;
  return {
    default: newest.version,
    writes: all.map((v) => ({ version: v.version, releases: Object.entries(v.releases).map(([release, data_version]) => ({ release, data_version })) })),
    reads: [
      `${all.map((v) => Object.keys(v.releases).join(", ")).join(", ")}: read and written with that version's blocks`,
      `1.18 to 1.21.11 (DataVersion 2860 to ${all[0]!.dataVersion - 1}): read-only, blocks upgraded to the registry's names`,
      "1.13 to 1.17 (the Level layout, y 0 to 255): read-only, blocks upgraded",
      "1.12 and older (numeric ids, by the game's flattening table): read-only, blocks flattened and upgraded",
      `newer than ${newest.version} (DataVersion ${newest.maxDataVersion + 1} on, 26.3 …): read-only, states read as they are (unknown ones kept and shown as unknown)`,
    ],
  };
}

/** The chunk versions a registry reads and writes: its own release and patch releases (see ChunkStore's refusals). */
export function chunkVersionsOf(registry: BlockRegistry): ChunkVersions {
  const maxDataVersion = Math.max(registry.dataVersion, ...Object.values(registry.releases));
  return { dataVersion: Math.min(...Object.values(registry.releases)), maxDataVersion, canonical: canonicalizer(registry) };
}

/** A state in the registry's canonical form (defaults filled in), unknown ones as they are; cached. */
export function canonicalizer(registry: BlockRegistry): (state: string) => string {
  const cache = new Map<string, string>();
  return (state) => {
    let c = cache.get(state);
    if (c === undefined) {
      const r = registry.resolveState(state);
      if (cache.size >= 65_536) cache.clear();
      cache.set(state, (c = r.ok ? r.value.canonical : state));
    }
    return c;
  };
}
