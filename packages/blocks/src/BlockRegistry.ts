import { suggestIds } from "./Suggestions.js";
import mcData from "minecraft-data";
import { behaviorHints, type BehaviorHint } from "./BehaviorHints.js";
import { formatState, parseStateSyntax } from "./BlockStateSyntax.js";
import { fail, mcbError, ok, type Result } from "./McbError.js";

/** Default Minecraft Java version of the registry (minecraft-data 3.117.0 ships 26.1, DataVersion 4786). */
export const DEFAULT_MINECRAFT_VERSION = "26.1";

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
}

/** A validated block state. `canonical` lists every property of the type, keys sorted. */
export interface BlockState {
  readonly id: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly canonical: string;
}

export interface BlockRegistry {
  readonly minecraftVersion: string;
  readonly dataVersion: number;
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
  /** Minecraft Java version known to minecraft-data; default {@link DEFAULT_MINECRAFT_VERSION}. */
  readonly version?: string;
}

const RESOLVE_CACHE_LIMIT = 65_536;

interface RawState {
  readonly name: string;
  readonly type: string;
  readonly num_values: number;
  readonly values?: readonly unknown[];
}

function rawValues(state: RawState): string[] {
  if (state.type === "bool") return ["true", "false"];
  return (state.values ?? []).map((v) => String(v));
}

/** Decodes the default property values from minecraft-data's state id numbering (last property varies fastest). */
function decodeDefaults(states: readonly RawState[], offset: number): Record<string, string> {
  const values: Record<string, string> = {};
  let rest = offset;
  for (let i = states.length - 1; i >= 0; i--) {
    const state = states[i]!;
    const domain = rawValues(state);
    values[state.name] = domain[rest % domain.length]!;
    rest = Math.floor(rest / domain.length);
  }
  return values;
}

/**
 * Builds the block registry for one Minecraft version. Errors: `version_mismatch` when
 * minecraft-data does not know the version or has no block states for it.
 */
export function createBlockRegistry(options: RegistryOptions = {}): Result<BlockRegistry> {
  const version = options.version ?? DEFAULT_MINECRAFT_VERSION;
  let data: ReturnType<typeof mcData> | null | undefined;
  try {
    data = mcData(version);
  } catch {
    data = undefined;
  }
  if (data == null || data.blocksArray == null || data.version.type !== "pc") {
    return fail(mcbError("version_mismatch", `minecraft-data has no Java edition data for version "${version}"`, { version }));
  }
  const itemNames = new Set(data.itemsArray.map((item) => item.name));
  const blocks = [...data.blocksArray].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const blockTypes = new Map<string, BlockType>();
  for (const block of blocks) {
    const raw = (block.states ?? []) as readonly RawState[];
    if (raw.length > 0 && (block as { minStateId?: number }).minStateId === undefined) {
      return fail(mcbError("version_mismatch", `minecraft-data ${version} lacks block state numbering`, { version }));
    }
    const b = block as unknown as { defaultState: number; minStateId: number };
    const defaults = decodeDefaults(raw, b.defaultState - b.minStateId);
    const properties = raw
      .map((s) => ({ name: s.name, values: Object.freeze(rawValues(s)) }))
      .sort((a, c) => (a.name < c.name ? -1 : a.name > c.name ? 1 : 0));
    const id = `minecraft:${block.name}`;
    const half = properties.find((p) => p.name === "half")?.values ?? [];
    blockTypes.set(id, {
      id,
      properties: Object.freeze(properties),
      defaults: Object.freeze(defaults),
      defaultState: formatState(id, defaults),
      behavior: Object.freeze(behaviorHints(block.name, new Set(properties.map((p) => p.name)), half)),
      hasItem: itemNames.has(block.name),
    });
  }
  const itemIds = new Set([...itemNames].sort().map((n) => `minecraft:${n}`));
  // The version asked for names the registry (minecraft-data files 26.1.2 under "26.1"), so a
  // server's reported version and the registry's agree.
  return ok(buildRegistry(options.version ?? data.version.minecraftVersion ?? version, data.version.dataVersion ?? 0, blockTypes, itemIds));
}

function buildRegistry(
  minecraftVersion: string,
  dataVersion: number,
  blockTypes: ReadonlyMap<string, BlockType>,
  itemIds: ReadonlySet<string>,
): BlockRegistry {
  const cache = new Map<string, Result<BlockState>>();

  const resolveUncached = (input: string): Result<BlockState> => {
    const syntax = parseStateSyntax(input);
    if (!syntax.ok) return syntax;
    const { id } = syntax.value;
    const type = blockTypes.get(id);
    if (type === undefined) {
      if (itemIds.has(id)) {
        return fail(mcbError("unsupported_block", `"${id}" is an item without a block form`, { reason: "item_only", id }));
      }
      const suggestions = suggestIds(blockTypes.keys(), id);
      return fail(mcbError("unsupported_block", `unknown block "${id}"${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : ""}`, { reason: "unknown_block", id, suggestions }));
    }
    const properties: Record<string, string> = { ...type.defaults };
    for (const [key, value] of syntax.value.properties) {
      const property = type.properties.find((p) => p.name === key);
      if (property === undefined) {
        return fail(
          mcbError("unsupported_block", `block "${id}" has no property "${key}"`, {
            reason: "unknown_property",
            id,
            property: key,
            allowed: type.properties.map((p) => p.name),
          }),
        );
      }
      if (!property.values.includes(value)) {
        return fail(
          mcbError("unsupported_block", `"${value}" is not a valid value of ${id} property "${key}"`, {
            reason: "invalid_value",
            id,
            property: key,
            value,
            allowed: property.values,
          }),
        );
      }
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

  return { minecraftVersion, dataVersion, blockTypes, itemIds, resolveState, stateOf };
}
