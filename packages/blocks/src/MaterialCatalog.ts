import { createHash } from "node:crypto";
import type { BlockRegistry, BlockType } from "./BlockRegistry.js";

export const SEARCH_DEFAULT_LIMIT = 16;
export const SEARCH_MAX_LIMIT = 32;

export interface MaterialEntry {
  readonly id: string;
  readonly block: boolean;
  readonly item: boolean;
}

/** project_context.material_catalog (docs/PROTOCOL.md). Block and item counts overlap. */
export interface CatalogSummary {
  readonly version: string;
  readonly materials: number;
  readonly blocks: number;
  readonly items: number;
  readonly search_default_limit: number;
  readonly search_max_limit: number;
}

export interface MaterialCatalog {
  /** 24 lowercase hex characters derived from the catalog's full content. */
  readonly version: string;
  /** Every material, sorted by id. */
  readonly materials: readonly MaterialEntry[];
  readonly summary: CatalogSummary;
  readonly registry: BlockRegistry;
  blockType(id: string): BlockType | undefined;
  material(id: string): MaterialEntry | undefined;
}

/**
 * The version covers ids, forms, property domains, defaults and behaviour hints, so any change a
 * caller could have cached (a new value, a new default) yields a new version and invalidates cursors.
 */
function catalogVersion(registry: BlockRegistry, materials: readonly MaterialEntry[]): string {
  const hash = createHash("sha256");
  hash.update(`mcb-catalog/1\n${registry.minecraftVersion}\n${registry.dataVersion}\n`);
  for (const m of materials) {
    hash.update(`${m.id}|${m.block ? 1 : 0}${m.item ? 1 : 0}`);
    const type = registry.blockTypes.get(m.id);
    if (type !== undefined) {
      hash.update(`|${type.defaultState}|${type.behavior.join(",")}`);
      for (const p of type.properties) hash.update(`|${p.name}=${p.values.join(",")}`);
    }
    hash.update("\n");
  }
  return hash.digest("hex").slice(0, 24);
}

/** Catalogs are pure functions of the (immutable) registry: each is built once and shared. */
const catalogs = new WeakMap<BlockRegistry, MaterialCatalog>();

export function createMaterialCatalog(registry: BlockRegistry): MaterialCatalog {
  let catalog = catalogs.get(registry);
  if (catalog === undefined) catalogs.set(registry, (catalog = buildCatalog(registry)));
  return catalog;
}

function buildCatalog(registry: BlockRegistry): MaterialCatalog {
  const ids = new Set<string>([...registry.blockTypes.keys(), ...registry.itemIds]);
  const materials = [...ids].sort().map((id) => Object.freeze({ id, block: registry.blockTypes.has(id), item: registry.itemIds.has(id) }));
  const byId = new Map(materials.map((m) => [m.id, m]));
  const version = catalogVersion(registry, materials);
  const summary: CatalogSummary = Object.freeze({
    version,
    materials: materials.length,
    blocks: registry.blockTypes.size,
    items: registry.itemIds.size,
    search_default_limit: SEARCH_DEFAULT_LIMIT,
    search_max_limit: SEARCH_MAX_LIMIT,
  });
  return Object.freeze({
    version,
    materials: Object.freeze(materials),
    summary,
    registry,
    blockType: (id: string) => registry.blockTypes.get(id),
    material: (id: string) => byId.get(id),
  });
}
