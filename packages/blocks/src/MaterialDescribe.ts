import { propertyMeanings } from "./PropertyMeanings.js";
import { suggestIds } from "./Suggestions.js";
import type { BehaviorHint } from "./BehaviorHints.js";
import type { MaterialCatalog } from "./MaterialCatalog.js";
import { fail, mcbError, ok, type Result } from "./McbError.js";

export const MAX_MATERIAL_ID_LENGTH = 128;

/**
 * material_describe response. Block forms carry the canonical default state and one value list per
 * property (never the Cartesian product); item-only entries are `placeable: false` without states.
 */
export interface MaterialDescription {
  readonly catalog_version: string;
  readonly id: string;
  readonly block: boolean;
  readonly item: boolean;
  readonly placeable: boolean;
  readonly default_state?: string;
  readonly properties?: Readonly<Record<string, readonly string[]>>;
  readonly behavior?: readonly BehaviorHint[];
  /** One line per orientation property (facing, half, axis, shape …): what it means for this block. */
  readonly meanings?: Readonly<Record<string, string>>;
}

const ID = /^(?:[a-z0-9_.-]+:)?[a-z0-9_./-]+$/;

/**
 * A missing namespace means `minecraft:`, as everywhere else (state strings, filters, palettes) and
 * in the game's own parser. Errors: `invalid_request` (not a string, over 128 characters, bad
 * syntax), `not_found`.
 */
export function describeMaterial(catalog: MaterialCatalog, rawId: unknown): Result<MaterialDescription> {
  if (typeof rawId !== "string" || rawId.length === 0 || rawId.length > MAX_MATERIAL_ID_LENGTH || !ID.test(rawId)) {
    return fail(
      mcbError("invalid_request", `id must be a material id of at most ${MAX_MATERIAL_ID_LENGTH} characters`, {
        reason: "invalid_id",
        field: "id",
      }),
    );
  }
  const id = rawId.includes(":") ? rawId : `minecraft:${rawId}`;
  const material = catalog.material(id);
  if (material === undefined) {
    const suggestions = suggestIds(
      catalog.materials.map((m) => m.id),
      id,
    );
    return fail(
      mcbError("not_found", `unknown material "${id}"${suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : ""}`, {
        reason: "unknown_material",
        id,
        suggestions,
      }),
    );
  }
  const base = { catalog_version: catalog.version, id, block: material.block, item: material.item };
  const type = catalog.blockType(id);
  if (type === undefined) return ok({ ...base, placeable: false });
  const description: MaterialDescription = {
    ...base,
    placeable: true,
    default_state: type.defaultState,
    ...(type.properties.length > 0 ? { properties: Object.fromEntries(type.properties.map((p) => [p.name, p.values])) } : {}),
    ...(type.behavior.length > 0 ? { behavior: type.behavior } : {}),
  };
  const meanings = propertyMeanings(
    id,
    type.properties.map((p) => p.name),
  );
  if (Object.keys(meanings).length > 0) return ok({ ...description, meanings });
  return ok(description);
}
