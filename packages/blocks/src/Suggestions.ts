/** Optimal string alignment distance (Levenshtein with adjacent swaps), stopping past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [],
    prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Up to `max` known ids closest to an unknown one ("did you mean"): by edit distance of the names
 * (namespace ignored, at most a third of the name's length), then ids that contain every word of
 * it, shortest first. Empty when nothing is close.
 */
export function suggestIds(known: Iterable<string>, unknown: string, max = 3): string[] {
  const want = unknown.replace(/^[a-z0-9_.-]+:/, "").toLowerCase();
  const limit = Math.max(1, Math.floor(want.length / 3));
  const words = want.split(/[_\s]+/).filter((w) => w.length > 1);
  const near: Array<{ id: string; d: number }> = [];
  const containing: string[] = [];
  for (const id of known) {
    const name = id.replace(/^[a-z0-9_.-]+:/, "");
    const d = distance(want, name, limit);
    if (d <= limit) near.push({ id, d });
    else if (words.length > 0 && words.every((w) => name.includes(w))) containing.push(id);
  }
  near.sort((a, b) => a.d - b.d || a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
  containing.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return [...new Set([...near.map((n) => n.id), ...containing])].slice(0, max);
}
