import { mcbError, type McbError } from "./McbError.js";

/** Bounds on untrusted JSON before any schema walks it (recipes nest, but not this deep). */
export const JSON_LIMITS = Object.freeze({ maxDepth: 64, maxNodes: 200_000 });

/**
 * Bounds the shape of untrusted JSON before schema validation walks it recursively.
 * Returns a description of the first excess, or undefined when within bounds.
 */
export function jsonShapeExcess(value: unknown, maxDepth: number, maxNodes: number): string | undefined {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++nodes > maxNodes) return `more than ${maxNodes} JSON values`;
    if (depth > maxDepth) return `JSON nesting deeper than ${maxDepth}`;
    if (Array.isArray(v)) for (const item of v) stack.push([item, depth + 1]);
    else if (v !== null && typeof v === "object") for (const item of Object.values(v)) stack.push([item, depth + 1]);
  }
  return undefined;
}

/** The refusal of JSON past `JSON_LIMITS` (`invalid_request`, reason `json_shape`), or null: one guard for every front end. */
export function jsonShapeError(value: unknown, what: string): McbError | null {
  const excess = jsonShapeExcess(value, JSON_LIMITS.maxDepth, JSON_LIMITS.maxNodes);
  return excess === undefined ? null : mcbError("invalid_request", `${what} too large: ${excess}`, { reason: "json_shape" });
}
