import { parseArgs } from "node:util";

/** Every option the command line knows (per-command usage says which apply). */
export const OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  state: { type: "string" },
  init: { type: "boolean" },
  world: { type: "string" },
  "mc-version": { type: "string" },
  output: { type: "string", short: "o" },
  origin: { type: "string" },
  "max-positions": { type: "string" },
  resolution: { type: "string" },
  "max-tiles": { type: "string" },
  at: { type: "string" },
  rotation: { type: "string" },
  width: { type: "string" },
  height: { type: "string" },
  "view-distance": { type: "string" },
  attach: { type: "boolean" },
  console: { type: "boolean" },
  "max-rate": { type: "string" },
  "cancel-grace": { type: "string" },
  "progress-every": { type: "string" },
  "max-area": { type: "string" },
  "on-manual-edit": { type: "string" },
  replace: { type: "string", multiple: true },
  fill: { type: "boolean" },
  drop: { type: "string" },
  "max-file-bytes": { type: "string" },
  "max-nbt-bytes": { type: "string" },
  "max-palette": { type: "string" },
  "max-block-entities": { type: "string" },
  part: { type: "string" },
  "take-over": { type: "string" },
  quality: { type: "string" },
  exact: { type: "boolean" },
  "retry-conflicts": { type: "boolean" },
  "sponge-version": { type: "string" },
  "no-wait-saved": { type: "boolean" },
  toolsets: { type: "string" },
  "skip-air": { type: "boolean" },
  frame: { type: "string" },
  side: { type: "string" },
  strict: { type: "boolean" },
  area: { type: "string" },
  journal: { type: "string" },
  preview: { type: "boolean" },
  overlay: { type: "string" },
  text: { type: "string" },
  "confirm-above": { type: "string" },
  http: { type: "string" },
} as const;

export type Values = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export type Parsed = { readonly ok: true; readonly positionals: readonly string[]; readonly values: Values } | { readonly ok: false; readonly problem: string };

/** Negative numbers (and lists of numbers: `--area -64,-64,63,63`) are values, not options: `mcb edit -3 64 0 stone` needs no "--". */
const NEGATIVE = /^-\d+(\.\d+)?(,-?\d+(\.\d+)?)*$/;
const MARK = "\u0001";

/** Parses argv strictly; an unknown option is a problem naming it (and the closest known one). */
export function parse(argv: readonly string[]): Parsed {
  const marked = argv.map((a) => (NEGATIVE.test(a) ? MARK + a : a));
  let r;
  try {
    r = parseArgs({ args: marked, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    const message = (e as Error).message;
    const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
    if (unknown !== undefined) {
      const near = closest(unknown.replace(/^-+/, ""), Object.keys(OPTIONS));
      return { ok: false, problem: `unknown option ${unknown}${near === null ? "" : ` (did you mean --${near}?)`}` };
    }
    return {
      ok: false,
      problem: message
        .replace(/\u0001/g, "")
        .split(". ")[0]!
        .replace(/^Option '([^']+)'/, "option $1"),
    };
  }
  const unmark = (v: string): string => (v.startsWith(MARK) ? v.slice(1) : v);
  const values: Record<string, string | boolean | readonly string[] | undefined> = {};
  for (const [k, v] of Object.entries(r.values)) values[k] = typeof v === "string" ? unmark(v) : Array.isArray(v) ? v.map(unmark) : v;
  return { ok: true, positionals: r.positionals.map(unmark), values };
}

/** The candidate at edit distance ≤ 2 from `word` (the nearest; null when none is that close). */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = 3;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** undefined when absent, null when not a positive integer. */
export function intOption(v: unknown): number | undefined | null {
  if (v === undefined) return undefined;
  const n = Number(v);
  return typeof v === "string" && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** undefined when absent, null when not "x,y,z" integers. */
export function vecOption(v: unknown): { x: number; y: number; z: number } | undefined | null {
  if (v === undefined) return undefined;
  if (typeof v !== "string") return null;
  const n = v.split(",").map(Number);
  return n.length === 3 && n.every(Number.isSafeInteger) ? { x: n[0]!, y: n[1]!, z: n[2]! } : null;
}

/**
 * `--area`: "minX,minZ,maxX,maxZ" (every height) or "minX,minY,minZ,maxX,maxY,maxZ"; corners in
 * any order. undefined when absent, null when malformed.
 */
export function areaOption(v: unknown): { minX: number; minZ: number; maxX: number; maxZ: number; minY?: number; maxY?: number } | undefined | null {
  if (v === undefined) return undefined;
  if (typeof v !== "string") return null;
  const n = v.split(",").map((p) => (p.trim() === "" ? NaN : Number(p)));
  if (!n.every((c) => Number.isSafeInteger(c) && Math.abs(c) <= 30_000_000)) return null;
  if (n.length === 4) return { minX: Math.min(n[0]!, n[2]!), minZ: Math.min(n[1]!, n[3]!), maxX: Math.max(n[0]!, n[2]!), maxZ: Math.max(n[1]!, n[3]!) };
  if (n.length === 6)
    return {
      minX: Math.min(n[0]!, n[3]!),
      minY: Math.min(n[1]!, n[4]!),
      minZ: Math.min(n[2]!, n[5]!),
      maxX: Math.max(n[0]!, n[3]!),
      maxY: Math.max(n[1]!, n[4]!),
      maxZ: Math.max(n[2]!, n[5]!),
    };
  return null;
}
