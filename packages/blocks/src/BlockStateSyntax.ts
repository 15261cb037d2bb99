import { fail, mcbError, ok, type McbError, type Result } from "./McbError.js";

/** Longest accepted state string, in characters (docs/PROTOCOL.md "Spelling and shared rules"). */
export const MAX_STATE_STRING_LENGTH = 1024;

/** A syntactically valid state string, not yet checked against a registry. */
export interface StateSyntax {
  /** Namespaced id; a missing namespace becomes `minecraft:` as in the game's own parser. */
  readonly id: string;
  /** Properties in written order; keys are unique. */
  readonly properties: ReadonlyArray<readonly [string, string]>;
}

const NAMESPACE = /^[a-z0-9_.-]+$/;
const PATH = /^[a-z0-9_./-]+$/;
const TOKEN = /^[a-z0-9_]+$/;

function malformed(input: string, message: string, index: number): McbError<"invalid_request"> {
  return mcbError("invalid_request", `malformed block state: ${message}`, {
    reason: "malformed_state",
    index,
    near: input.slice(Math.max(0, index - 8), index + 8),
  });
}

/**
 * Parses `namespace:path[key=value,...]` strictly: no whitespace, no NBT, unique keys,
 * at most {@link MAX_STATE_STRING_LENGTH} characters. Errors are `invalid_request` with
 * `details.reason` `too_long` | `malformed_state` | `duplicate_property` and the offending index.
 */
export function parseStateSyntax(input: string): Result<StateSyntax> {
  if (typeof input !== "string") return fail(malformed(String(input), "not a string", 0));
  if (input.length > MAX_STATE_STRING_LENGTH) {
    return fail(
      mcbError("invalid_request", `block state is ${input.length} characters; the limit is ${MAX_STATE_STRING_LENGTH}`, {
        reason: "too_long",
        length: input.length,
        limit: MAX_STATE_STRING_LENGTH,
      }),
    );
  }
  const open = input.indexOf("[");
  const head = open < 0 ? input : input.slice(0, open);
  if (head.length === 0) return fail(malformed(input, "missing block id", 0));
  const colon = head.indexOf(":");
  const namespace = colon < 0 ? "minecraft" : head.slice(0, colon);
  const path = colon < 0 ? head : head.slice(colon + 1);
  if (!NAMESPACE.test(namespace)) return fail(malformed(input, `invalid namespace "${namespace}"`, 0));
  if (!PATH.test(path)) return fail(malformed(input, `invalid block id "${head}"`, colon + 1));
  const id = `${namespace}:${path}`;
  if (open < 0) return ok({ id, properties: [] });
  if (!input.endsWith("]")) return fail(malformed(input, "expected ']' at the end", input.length));
  const body = input.slice(open + 1, -1);
  if (body.length === 0) return ok({ id, properties: [] });
  const properties: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  let index = open + 1;
  for (const pair of body.split(",")) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? "" : pair.slice(eq + 1);
    if (eq < 0) return fail(malformed(input, `expected key=value, got "${pair}"`, index));
    if (!TOKEN.test(key)) return fail(malformed(input, `invalid property name "${key}"`, index));
    if (!TOKEN.test(value)) return fail(malformed(input, `invalid value "${value}" for property "${key}"`, index + eq + 1));
    if (seen.has(key)) {
      return fail(mcbError("invalid_request", `property "${key}" is given twice`, { reason: "duplicate_property", property: key, index }));
    }
    seen.add(key);
    properties.push([key, value]);
    index += pair.length + 1;
  }
  return ok({ id, properties });
}

/** Formats a state canonically: namespaced id, keys sorted by code unit, no brackets when empty. */
export function formatState(id: string, properties: Readonly<Record<string, string>>): string {
  const keys = Object.keys(properties).sort();
  if (keys.length === 0) return id;
  return `${id}[${keys.map((k) => `${k}=${properties[k]}`).join(",")}]`;
}

/** The block id of a canonical state string (`minecraft:chest[facing=north,…]` → `minecraft:chest`). */
export function blockIdOf(canonical: string): string {
  const open = canonical.indexOf("[");
  return open < 0 ? canonical : canonical.slice(0, open);
}
