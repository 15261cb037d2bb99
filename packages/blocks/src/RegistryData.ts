import { readFileSync } from "node:fs";

/**
 * The generated registry files in `packages/blocks/data/` (scripts/generate-registry.mjs, from
 * Minestom's data artifact of each game version; checked by a test that regenerates them). Parsed
 * once per process and never changed: every registry built from them shares the arrays.
 */

/** Collision box in block units: [x0, y0, z0, x1, y1, z1]. */
export type RawBox = readonly [number, number, number, number, number, number];

/** Heightmap flags of a state (the game's `blocksMotion()`, and a non-empty fluid state). */
export const FLAG_MOTION = 1;
export const FLAG_FLUID = 2;

/**
 * One block: name without namespace, properties in the game's order (values in the game's order),
 * the default state's offset, its states' kinds (one for all, or one per state, state order: last
 * property fastest), and the block-entity type when it has one.
 */
export type RawBlock = readonly [string, ReadonlyArray<readonly [string, readonly string[]]>, number, number | readonly number[], string?];

export interface RawRegistry {
  readonly format: 1;
  readonly minecraftVersion: string;
  readonly dataVersion: number;
  readonly protocol: number;
  /** Releases sharing these blocks (the registry's and its patch releases), with their DataVersions. */
  readonly releases: Readonly<Record<string, number>>;
  readonly source: string;
  readonly items: readonly string[];
  readonly shapes: ReadonlyArray<readonly RawBox[]>;
  /** [shape index, flags]. */
  readonly kinds: ReadonlyArray<readonly [number, number]>;
  readonly blocks: readonly RawBlock[];
}

/** The registries this build has, oldest first; the last is the default. */
export const REGISTRY_VERSIONS = ["26.1", "26.2"] as const;

const cache = new Map<string, unknown>();

function load<T>(file: string): T {
  let v = cache.get(file);
  if (v === undefined) {
    v = JSON.parse(readFileSync(new URL(`../data/${file}`, import.meta.url), "utf8"));
    cache.set(file, v);
  }
  return v as T;
}

export function rawRegistry(version: (typeof REGISTRY_VERSIONS)[number]): RawRegistry {
  const r = load<RawRegistry>(`registry-${version}.json`);
  if (r.format !== 1) throw new Error(`registry-${version}.json: unknown format ${String(r.format)}`);
  return r;
}

/** [DataVersion, release name] of every release from 1.9 on, ascending. */
export function releaseTable(): ReadonlyArray<readonly [number, string]> {
  return load<{ releases: ReadonlyArray<readonly [number, string]> }>("data-versions.json").releases;
}

/** ["id:meta", 1.13 state] of 1.12's numeric block ids. */
export function legacyTable(): ReadonlyArray<readonly [string, string]> {
  return load<{ blocks: ReadonlyArray<readonly [string, string]> }>("legacy-1.12.json").blocks;
}
