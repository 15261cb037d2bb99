import type { SqlDb } from "./SqlDb.js";

/**
 * Named claims with a holder and an expiry, shared by every process on the store: a recovery's one
 * claimant, a region's lease. A claim is taken when it is free, expired, or already the holder's
 * (which renews it); a holder that dies leaves it to expire.
 */
export class ClaimStore {
  constructor(private readonly db: SqlDb) {}

  /** Takes or renews `name` for `holder` until `now + ttlMs`; false when someone else holds it. */
  claim(name: string, holder: string, ttlMs: number, now: number): boolean {
    const r = this.db.run(
      "INSERT INTO claims VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE claims.holder = excluded.holder OR claims.expires_at <= ?",
      [name, holder, now + ttlMs, now],
    );
    return r.changes === 1;
  }

  /** Renews every claim of `names` that `holder` holds; true when that was all of them. */
  renew(names: readonly string[], holder: string, ttlMs: number, now: number): boolean {
    if (names.length === 0) return true;
    const r = this.db.run(`UPDATE claims SET expires_at = ? WHERE holder = ? AND name IN (${names.map(() => "?").join(", ")})`, [
      now + ttlMs,
      holder,
      ...names,
    ]);
    return r.changes === new Set(names).size;
  }

  /** Gives `name` up if `holder` holds it. */
  release(name: string, holder: string): void {
    this.db.run("DELETE FROM claims WHERE name = ? AND holder = ?", [name, holder]);
  }

  clear(): void {
    this.db.run("DELETE FROM claims");
  }

  /** Who holds `name` now (null: free or expired). */
  holder(name: string, now: number): string | null {
    const row = this.db.get("SELECT holder FROM claims WHERE name = ? AND expires_at > ?", [name, now]);
    return row === undefined ? null : (row["holder"] as string);
  }
}
