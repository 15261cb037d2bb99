import { createHash } from "node:crypto";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, type MaterialCatalog, type MaterialEntry } from "./MaterialCatalog.js";
import { fail, mcbError, ok, type McbError, type Result } from "./McbError.js";

export const MAX_QUERY_LENGTH = 96;
export const MAX_CURSOR_LENGTH = 100;

export type MaterialKind = "block" | "item" | "all";

export interface MaterialSearchInput {
  readonly query?: unknown;
  readonly kind?: unknown;
  readonly limit?: unknown;
  readonly cursor?: unknown;
}

/** material_search response (docs/PROTOCOL.md); `next_cursor` is present only when more results exist. */
export interface MaterialSearchPage {
  readonly catalog_version: string;
  readonly query: string;
  readonly kind: MaterialKind;
  readonly total: number;
  readonly results: readonly MaterialEntry[];
  readonly next_cursor?: string;
}

const PRINTABLE = /^[\x20-\x7e]*$/;
const CURSOR = /^c1\.([0-9a-z]{1,8})\.([0-9a-f]{20})$/;

function invalid(message: string, details: Record<string, unknown>): McbError<"invalid_request"> {
  return mcbError("invalid_request", message, details);
}

/** Lowercases and collapses whitespace; the normalized query is what cursors are bound to. */
export function normalizeQuery(query: string): string {
  return query
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0)
    .join(" ");
}

function binding(catalogVersion: string, query: string, kind: MaterialKind): string {
  return createHash("sha256").update(`${catalogVersion}\n${kind}\n${query}`).digest("hex").slice(0, 20);
}

/**
 * Ranking is total and deterministic. An empty query lists ids in order; otherwise the material
 * whose name equals the query (tokens joined by `_`) comes first, then names starting with the
 * first token, then shorter ids, then id order.
 */
function rank(entries: MaterialEntry[], query: string): MaterialEntry[] {
  if (query.length === 0) return entries;
  const tokens = query.split(" ").filter((t) => t.length > 0);
  const exact = `minecraft:${tokens.join("_")}`;
  const prefix = `minecraft:${tokens[0] ?? ""}`;
  const score = (e: MaterialEntry): number => (e.id === exact ? 0 : e.id.startsWith(prefix) ? 1 : 2);
  return entries.sort((a, b) => score(a) - score(b) || a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
}

/**
 * Searches material ids: every whitespace-separated token must occur in the id, case-insensitively.
 * Errors (`invalid_request`, nothing cached or changed): query over 96 characters or not printable,
 * unknown kind, limit outside 1..32, malformed cursor, or a cursor bound to another
 * catalog version/query/kind (`details.reason: "cursor_mismatch"`).
 */
export function searchMaterials(catalog: MaterialCatalog, input: MaterialSearchInput): Result<MaterialSearchPage> {
  const rawQuery = input.query ?? "";
  if (typeof rawQuery !== "string") return fail(invalid("query must be a string", { reason: "invalid_query", field: "query" }));
  if (rawQuery.length > MAX_QUERY_LENGTH || !PRINTABLE.test(rawQuery)) {
    return fail(
      invalid(`query must be at most ${MAX_QUERY_LENGTH} printable ASCII characters`, {
        reason: "invalid_query",
        field: "query",
        limit: MAX_QUERY_LENGTH,
      }),
    );
  }
  const kind = input.kind ?? "block";
  if (kind !== "block" && kind !== "item" && kind !== "all") {
    return fail(invalid('kind must be "block", "item" or "all"', { reason: "invalid_kind", field: "kind" }));
  }
  const limit = input.limit ?? SEARCH_DEFAULT_LIMIT;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
    return fail(invalid(`limit must be an integer 1..${SEARCH_MAX_LIMIT}`, { reason: "invalid_limit", field: "limit" }));
  }
  const query = normalizeQuery(rawQuery);
  const bound = binding(catalog.version, query, kind);
  let offset = 0;
  if (input.cursor !== undefined) {
    const cursor = input.cursor;
    const match = typeof cursor === "string" && cursor.length <= MAX_CURSOR_LENGTH ? CURSOR.exec(cursor) : null;
    if (match === null) return fail(invalid("malformed cursor", { reason: "invalid_cursor", field: "cursor" }));
    if (match[2] !== bound) {
      return fail(
        invalid("cursor belongs to another catalog version, query or kind; start a new search", {
          reason: "cursor_mismatch",
          field: "cursor",
        }),
      );
    }
    offset = Number.parseInt(match[1]!, 36);
  }
  const tokens = query.split(" ").filter((t) => t.length > 0);
  const matches = catalog.materials.filter((m) => (kind === "all" || (kind === "block" ? m.block : m.item)) && tokens.every((t) => m.id.includes(t)));
  const ranked = rank(matches, query);
  if (offset > ranked.length) return fail(invalid("cursor is past the end of the results", { reason: "invalid_cursor", field: "cursor" }));
  const results = ranked.slice(offset, offset + limit);
  const next = offset + results.length;
  const page: MaterialSearchPage = { catalog_version: catalog.version, query, kind, total: ranked.length, results };
  return ok(next < ranked.length ? { ...page, next_cursor: `c1.${next.toString(36)}.${bound}` } : page);
}
