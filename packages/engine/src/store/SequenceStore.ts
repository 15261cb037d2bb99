import type { SqlDb } from "./SqlDb.js";
import { firstColumn } from "./SqlDb.js";

/**
 * The journal's sequence: every confirmed slice, touch batch and gap takes the next number, inside
 * the writer's transaction, so numbers are given in commit order across every process.
 */
export class SequenceStore {
  constructor(private readonly db: SqlDb) {}

  next(): number {
    return this.take(1);
  }

  /** The next `n` numbers at once (one statement, one round trip on a shared store): returns the last of them. */
  take(n: number): number {
    return Number(firstColumn(this.db.get("UPDATE meta SET value = value + ? WHERE key = 'seq' RETURNING value", [n])));
  }

  head(): number {
    return Number(firstColumn(this.db.get("SELECT value FROM meta WHERE key = 'seq'")));
  }
}
