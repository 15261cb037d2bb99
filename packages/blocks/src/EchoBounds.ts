/**
 * Bounds on anything an error echoes back from the caller's input (names, values, paths): a
 * hostile 10 MB argument name must not become a 20 MB response. Applied to every error body the
 * server sends, tool errors and JSON-RPC errors alike.
 */
export const ECHO_LIMITS = Object.freeze({
  /** Characters kept of a long string (the rest is replaced by a count). */
  stringChars: 160,
  /** Characters kept of an object key. */
  keyChars: 64,
  arrayItems: 16,
  objectKeys: 32,
  depth: 6,
});

/** A string cut to `max` characters with the number of characters left out. */
export function clip(s: string, max: number = ECHO_LIMITS.stringChars): string {
  if (s.length <= max) return s;
  // Cut on a code point boundary, never inside a surrogate pair.
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…(${s.length - end} more characters)`;
}

/** A copy of `value` with every string, key, array and object bounded; JSON values only. */
export function boundEcho(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return clip(value);
  if (value === null || typeof value !== "object") return typeof value === "bigint" ? String(value) : value;
  if (depth >= ECHO_LIMITS.depth) return "…(nested too deep)";
  if (Array.isArray(value)) {
    const out = value.slice(0, ECHO_LIMITS.arrayItems).map((v) => boundEcho(v, depth + 1));
    if (value.length > ECHO_LIMITS.arrayItems) out.push(`…(${value.length - ECHO_LIMITS.arrayItems} more items)`);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const k of keys.slice(0, ECHO_LIMITS.objectKeys)) out[clip(k, ECHO_LIMITS.keyChars)] = boundEcho((value as Record<string, unknown>)[k], depth + 1);
  if (keys.length > ECHO_LIMITS.objectKeys) out["…"] = `${keys.length - ECHO_LIMITS.objectKeys} more keys`;
  return out;
}
