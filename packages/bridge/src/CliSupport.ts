import type { Result } from "@mcb/blocks";
import { locationOf, openEmbeddedWorld, type EmbeddedWorld, type WorldLocation } from "./EmbeddedWorld.js";

export type Out = { json: boolean };

/** Prints a result: the value (JSON with --json, else text) on stdout, or the error as JSON on stderr (exit 1). */
export function emit<T>(r: Result<T>, o: Out, text: (v: T) => string): number {
  if (!r.ok) {
    process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
    return 1;
  }
  process.stdout.write(o.json ? `${JSON.stringify(r.value)}\n` : `${text(r.value)}\n`);
  return 0;
}

export async function withWorld(state: string | WorldLocation, run: (w: EmbeddedWorld) => Promise<number>): Promise<number> {
  const where = locationOf(state);
  const opened = await openEmbeddedWorld(where.dir, where.target);
  if (!opened.ok) return emit(opened, { json: true }, () => "");
  const w = opened.value;
  try {
    return await run(w);
  } finally {
    await w.close();
  }
}

/** undefined when absent, null when not "x,y,z" integers. */
export function vec(v: string | undefined): { x: number; y: number; z: number } | undefined | null {
  if (v === undefined) return undefined;
  const n = v.split(",").map(Number);
  return n.length === 3 && n.every(Number.isSafeInteger) ? { x: n[0]!, y: n[1]!, z: n[2]! } : null;
}

/** undefined when absent, null when not a positive integer. */
export function intOption(v: string | undefined): number | undefined | null {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
