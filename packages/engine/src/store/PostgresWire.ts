import type { SqlRow, SqlValue, StoreError } from "./SqlDb.js";

// The messages between `PostgresDb` (caller thread, blocking) and its worker (the `pg` client).

/** A statement of a batch: `$n` placeholders with their values, and the rows it must change, if checked. */
export interface WireStatement {
  readonly sql: string;
  readonly params: readonly SqlValue[];
  readonly expect?: { readonly changes: number; readonly failure: string };
}

export type WireRequest =
  | { readonly id: number; readonly op: "query"; readonly sql: string; readonly params: readonly SqlValue[] }
  /** Statements sent as one simple query (one round trip); the rows of the last one come back. */
  | { readonly id: number; readonly op: "batch"; readonly statements: readonly WireStatement[] }
  | { readonly id: number; readonly op: "exec"; readonly sql: string }
  | { readonly id: number; readonly op: "rollback" | "close" };

export type WireReply =
  | { readonly id: number; readonly ok: true; readonly rows: SqlRow[]; readonly changes: number }
  | { readonly id: number; readonly ok: false; readonly error: StoreError };

/** What the worker starts with. */
export interface WireStart {
  readonly url: string;
  /** Int32 flag the worker sets to 1 and notifies after posting each reply. */
  readonly signal: SharedArrayBuffer;
}

/**
 * Replaces every match of `pattern` (a sticky regex) found outside quoted text ('…' or "…") by
 * `replace(match)`: placeholders are rewritten, never text inside literals or identifiers.
 */
export function replaceOutsideQuotes(sql: string, pattern: RegExp, replace: (match: string) => string): string {
  if (!pattern.sticky) throw new Error("replaceOutsideQuotes needs a sticky pattern");
  let out = "";
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (quote === null) {
      pattern.lastIndex = i;
      const m = pattern.exec(sql);
      if (m !== null) {
        out += replace(m[0]);
        i += m[0].length - 1;
        continue;
      }
      if (ch === "'" || ch === '"') quote = ch;
    } else if (ch === quote) quote = null;
    out += ch;
  }
  return out;
}

/** `?` placeholders to PostgreSQL's `$1…$n`. */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return replaceOutsideQuotes(sql, /\?/y, () => `$${++n}`);
}

/** A connection string with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/, "$1:***@");
}
