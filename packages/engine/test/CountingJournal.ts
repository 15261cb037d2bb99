import { openJournal, type SqlJournal } from "../src/index.js";

/** A real journal (SQLite in memory) whose calls of `method` are counted (how many reached the store). */
export function countingJournal<K extends "renewClaims" | "eventCursor">(method: K): { journal: SqlJournal; calls: () => number } {
  const journal = openJournal(":memory:");
  let n = 0;
  const real = (journal[method] as (...args: unknown[]) => unknown).bind(journal);
  (journal as unknown as Record<K, (...args: unknown[]) => unknown>)[method] = (...args) => {
    n++;
    return real(...args);
  };
  return { journal, calls: () => n };
}
