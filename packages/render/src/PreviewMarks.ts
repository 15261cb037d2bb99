import type { BlockLook } from "./BlockColors.js";

/**
 * How a plan's preview marks what it changes, drawn over the world as it will be after the plan:
 * `place` a block where there was none (tinted green), `change` one block for another (tinted
 * amber), `remove` a block the plan clears (the old block, as red glass). A marked state is the
 * plain state with the mark after a separator no state string contains, so any `BlockSource` can
 * carry it through a read's palette.
 */
export const PREVIEW_MARKS = ["place", "change", "remove"] as const;
export type PreviewMark = (typeof PREVIEW_MARKS)[number];

const SEPARATOR = "\u0001";
const TINTS: Record<PreviewMark, readonly [number, number, number]> = {
  place: [60, 220, 90],
  change: [250, 190, 40],
  remove: [230, 50, 50],
};
/** How much of the mark's colour a marked block takes. */
const STRENGTH = 0.45;

/** The state with a preview mark (see `markOf`). */
export function markedState(state: string, mark: PreviewMark): string {
  return `${state}${SEPARATOR}${mark}`;
}

/** A palette entry's plain state and its mark (null: an unmarked state). */
export function markOf(entry: string): { readonly state: string; readonly mark: PreviewMark | null } {
  const at = entry.indexOf(SEPARATOR);
  if (at < 0) return { state: entry, mark: null };
  const mark = entry.slice(at + 1);
  return { state: entry.slice(0, at), mark: (PREVIEW_MARKS as readonly string[]).includes(mark) ? (mark as PreviewMark) : null };
}

function mix(c: readonly [number, number, number], t: readonly [number, number, number], k: number): [number, number, number] {
  return [Math.round(c[0] * (1 - k) + t[0] * k), Math.round(c[1] * (1 - k) + t[1] * k), Math.round(c[2] * (1 - k) + t[2] * k)];
}

/** A block's look with a preview mark on it; a block that draws nothing stays invisible. */
export function markLook(look: BlockLook, mark: PreviewMark): BlockLook {
  if (look.surface === "none") return look;
  const tint = TINTS[mark];
  const k = mark === "remove" ? 0.6 : STRENGTH;
  const [r, g, b] = mix([look.r, look.g, look.b], tint, k);
  return {
    ...look,
    r,
    g,
    b,
    ...(look.top === undefined ? {} : { top: mix(look.top, tint, k) }),
    ...(look.accent === undefined ? {} : { accent: mix(look.accent, tint, k) }),
    ...(mark === "remove" ? { surface: "translucent" as const, alpha: 0.45 } : {}),
  };
}
