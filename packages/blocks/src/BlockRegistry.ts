import { behaviorHints, type BehaviorHint } from "./BehaviorHints.js";
import { formatState, parseStateSyntax } from "./BlockStateSyntax.js";
import { fail, mcbError, ok, type McbError, type Result } from "./McbError.js";
import { REGISTRY_VERSIONS, rawRegistry, type RawRegistry } from "./RegistryData.js";
import { suggestIds } from "./Suggestions.js";

/** Default Minecraft Java version of the registry: 26.2 (DataVersion 4903), the newest this build has. */
export const DEFAULT_MINECRAFT_VERSION = "26.2";

export interface BlockProperty {
  readonly name: string;
  /** Allowed values in the game's own order (booleans: true, false). */
  readonly values: readonly string[];
}

export interface BlockType {
  /** Namespaced id, e.g. `minecraft:oak_stairs`. */
  readonly id: string;
  /** Properties sorted by name. */
  readonly properties: readonly BlockProperty[];
  readonly defaults: Readonly<Record<string, string>>;
  /** Canonical default state: every property, keys sorted. */
  readonly defaultState: string;
  readonly behavior: readonly BehaviorHint[];
  readonly hasItem: boolean;
  /** The block-entity type its states carry (`minecraft:chest`, `minecraft:sign` …), or null. */
  readonly blockEntity: string | null;
}

/** A validated block state. `canonical` lists every property of the type, keys sorted. */
export interface BlockState {
  readonly id: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly canonical: string;
}

export interface BlockRegistry {
  /** The release it was asked for (`26.1.2` names the 26.1 blocks as that release). */
  readonly minecraftVersion: string;
  readonly dataVersion: number;
  /** The releases with exactly these blocks (a release and its patch releases) and their DataVersions. */
  readonly releases: Readonly<Record<string, number>>;
  /** Block types sorted by id. */
  readonly blockTypes: ReadonlyMap<string, BlockType>;
  /** Namespaced ids of every item, sorted. */
  readonly itemIds: ReadonlySet<string>;
  /**
   * Validates a state string and fills omitted properties with defaults.
   * Errors: `invalid_request` (syntax, length, duplicate key) or `unsupported_block` with
   * `details.reason` `unknown_block` | `item_only` | `unknown_property` | `invalid_value`.
   */
  resolveState(input: string): Result<BlockState>;
  /** Looks up an already canonical state; throws when it is not (a broken invariant). */
  stateOf(canonical: string): BlockState;
}

export interface RegistryOptions {
  /** A Minecraft Java release this build has blocks for (see {@link minecraftVersions}); default {@link DEFAULT_MINECRAFT_VERSION}. */
  readonly version?: string;
}

/** A registry this build has: its version, and the releases (with DataVersions) sharing its blocks. */
export interface RegistryVersion {
  readonly version: string;
  readonly dataVersion: number;
  /** The newest DataVersion of its releases: chunks up to it hold exactly these blocks. */
  readonly maxDataVersion: number;
  readonly releases: Readonly<Record<string, number>>;
}

/** The registries this build has, oldest first (the last is the default). */
export function minecraftVersions(): readonly RegistryVersion[] {
  return REGISTRY_VERSIONS.map((v) => {
    const r = rawRegistry(v);
    return { version: v, dataVersion: r.dataVersion, maxDataVersion: Math.max(...Object.values(r.releases)), releases: r.releases };
  });
}

const RESOLVE_CACHE_LIMIT = 65_536;

/** What BlockShapes needs of a registry's data: the game's property order and each state's kind. */
export interface RegistryInternals {
  readonly raw: RawRegistry;
  /** Per block id: properties in the game's order, and the kinds (one, or one per state). */
  readonly order: ReadonlyMap<string, { readonly properties: ReadonlyArray<readonly [string, readonly string[]]>; readonly kinds: number | readonly number[] }>;
}

const internals = new WeakMap<BlockRegistry, RegistryInternals>();

/** The generated data behind a registry (package-internal: BlockShapes). */
export function registryInternals(registry: BlockRegistry): RegistryInternals {
  const i = internals.get(registry);
  if (i === undefined) throw new Error("invariant: a registry not made by createBlockRegistry");
  return i;
}

/** Decodes the default property values from the state numbering (last property varies fastest). */
function decodeDefaults(properties: ReadonlyArray<readonly [string, readonly string[]]>, offset: number): Record<string, string> {
  const values: Record<string, string> = {};
  let rest = offset;
  for (let i = properties.length - 1; i >= 0; i--) {
    const [name, domain] = properties[i]!;
    values[name] = domain[rest % domain.length]!;
    rest = Math.floor(rest / domain.length);
  }
  return values;
}

/** The registry version whose releases include `version`, or undefined. */
function registryVersionOf(version: string): (typeof REGISTRY_VERSIONS)[number] | undefined {
  return REGISTRY_VERSIONS.find((v) => rawRegistry(v).releases[version] !== undefined);
}

/**
 * Builds the block registry for one Minecraft release (any release of a registry this build has:
 * 26.1, 26.1.1, 26.1.2, 26.2). Errors: `version_mismatch` naming the releases it has.
 */
export function createBlockRegistry(options: RegistryOptions = {}): Result<BlockRegistry> {
  const version = options.version ?? DEFAULT_MINECRAFT_VERSION;
  const of = registryVersionOf(version);
  if (of === undefined) {
    const known = minecraftVersions().flatMap((v) => Object.keys(v.releases));
    return fail(
      mcbError("version_mismatch", `this build has no block registry for Minecraft "${version.slice(0, 40)}"; it has ${known.join(", ")}`, {
        version: version.slice(0, 40),
        known,
      }),
    );
  }
  const raw = rawRegistry(of);
  const itemNames = new Set(raw.items);
  const blockTypes = new Map<string, BlockType>();
  const order = new Map<string, { properties: ReadonlyArray<readonly [string, readonly string[]]>; kinds: number | readonly number[] }>();
  for (const [name, gameOrder, defaultOffset, kinds, blockEntity] of raw.blocks) {
    const defaults = decodeDefaults(gameOrder, defaultOffset);
    const properties = gameOrder
      .map(([n, values]) => ({ name: n, values: Object.freeze([...values]) }))
      .sort((a, c) => (a.name < c.name ? -1 : a.name > c.name ? 1 : 0));
    const id = `minecraft:${name}`;
    const half = properties.find((p) => p.name === "half")?.values ?? [];
    blockTypes.set(id, {
      id,
      properties: Object.freeze(properties),
      defaults: Object.freeze(defaults),
      defaultState: formatState(id, defaults),
      behavior: Object.freeze(behaviorHints(name, new Set(properties.map((p) => p.name)), half, blockEntity !== undefined)),
      hasItem: itemNames.has(name),
      blockEntity: blockEntity ?? null,
    });
    order.set(id, { properties: gameOrder, kinds });
  }
  const itemIds = new Set(raw.items.map((n) => `minecraft:${n}`));
  const registry = buildRegistry(version, raw.releases[version]!, raw.releases, blockTypes, itemIds, of);
  internals.set(registry, { raw, order });
  return ok(registry);
}

/** The newer registry that has `id`, for "new in 26.2" hints; undefined when none does. */
function newerWith(id: string, than: string): string | undefined {
  const name = id.replace(/^minecraft:/, "");
  const after = REGISTRY_VERSIONS.slice(REGISTRY_VERSIONS.indexOf(than as (typeof REGISTRY_VERSIONS)[number]) + 1);
  return after.find((v) => rawRegistry(v).blocks.some((b) => b[0] === name));
}

function buildRegistry(
  minecraftVersion: string,
  dataVersion: number,
  releases: Readonly<Record<string, number>>,
  blockTypes: ReadonlyMap<string, BlockType>,
  itemIds: ReadonlySet<string>,
  registryVersion: string,
): BlockRegistry {
  const cache = new Map<string, Result<BlockState>>();

  const resolveUncached = (input: string): Result<BlockState> => {
    const syntax = parseStateSyntax(input);
    if (!syntax.ok) return syntax;
    const { id } = syntax.value;
    const type = blockTypes.get(id);
    if (type === undefined) return fail(unknownBlock(id, blockTypes, itemIds, minecraftVersion, registryVersion));
    const properties: Record<string, string> = { ...type.defaults };
    for (const [key, value] of syntax.value.properties) {
      const refused = propertyRefusal(id, type, key, value);
      if (refused !== null) return fail(refused);
      properties[key] = value;
    }
    return ok(Object.freeze({ id, properties: Object.freeze(properties), canonical: formatState(id, properties) }));
  };

  const resolveState = (input: string): Result<BlockState> => {
    const hit = cache.get(input);
    if (hit !== undefined) return hit;
    const result = resolveUncached(input);
    if (cache.size >= RESOLVE_CACHE_LIMIT) cache.clear();
    cache.set(input, result);
    return result;
  };

  const stateOf = (canonical: string): BlockState => {
    const result = resolveState(canonical);
    if (!result.ok || result.value.canonical !== canonical) {
      throw new Error(`invariant: "${canonical}" is not a canonical block state`);
    }
    return result.value;
  };

  return { minecraftVersion, dataVersion, releases, blockTypes, itemIds, resolveState, stateOf };
}

/** Why `id` names no block of this version: an item only, a block of a newer version, or unknown (with suggestions). */
function unknownBlock(
  id: string,
  blockTypes: ReadonlyMap<string, BlockType>,
  itemIds: ReadonlySet<string>,
  minecraftVersion: string,
  registryVersion: string,
): McbError {
  if (itemIds.has(id)) return mcbError("unsupported_block", `"${id}" is an item without a block form`, { reason: "item_only", id });
  const since = id.startsWith("minecraft:") ? newerWith(id, registryVersion) : undefined;
  if (since !== undefined)
    return mcbError("unsupported_block", `"${id}" is new in Minecraft ${since}; this world's blocks are Minecraft ${minecraftVersion}'s`, {
      reason: "unknown_block",
      id,
      suggestions: [],
      since,
    });
  const suggestions = suggestIds(blockTypes.keys(), id);
  return mcbError("unsupported_block", `unknown block "${id}"${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : ""}`, {
    reason: "unknown_block",
    id,
    suggestions,
  });
}

/** Null when `key=value` is a property and value of the block type, else why not. */
function propertyRefusal(id: string, type: BlockType, key: string, value: string): McbError | null {
  const property = type.properties.find((p) => p.name === key);
  if (property === undefined)
    return mcbError("unsupported_block", `block "${id}" has no property "${key}"`, {
      reason: "unknown_property",
      id,
      property: key,
      allowed: type.properties.map((p) => p.name),
    });
  if (!property.values.includes(value))
    return mcbError("unsupported_block", `"${value}" is not a valid value of ${id} property "${key}"`, {
      reason: "invalid_value",
      id,
      property: key,
      value,
      allowed: property.values,
    });
  return null;
}
