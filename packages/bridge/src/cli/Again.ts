import { DEFAULT_STATE_DIR, type WorldLocation } from "../workspace/world/Workspace.js";

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `mcb` command line that runs `args` on the same world as this run (its state directory,
 * world, journal, version and area options), ready to paste: what a message tells a person to run
 * next (`mcb undo op_…` after Ctrl-C) must reach the world the interrupted command used.
 */
export function sameWorldCommand(args: readonly string[], location: WorldLocation): string {
  const t = location.target;
  const a = t.area;
  const words = [
    "mcb",
    ...args,
    ...(location.dir === DEFAULT_STATE_DIR ? [] : ["--state", location.dir]),
    ...(t.savePath !== undefined ? ["--world", `save:${t.savePath}`] : t.portUrl !== undefined ? ["--world", t.portUrl] : []),
    ...(t.journal === undefined ? [] : ["--journal", t.journal]),
    ...(t.minecraftVersion === undefined ? [] : ["--mc-version", t.minecraftVersion]),
    ...(a === undefined
      ? []
      : [
          "--area",
          a.minY === undefined || a.maxY === undefined
            ? `${a.minX},${a.minZ},${a.maxX},${a.maxZ}`
            : `${a.minX},${a.minY},${a.minZ},${a.maxX},${a.maxY},${a.maxZ}`,
        ]),
  ];
  return words.map(shellWord).join(" ");
}
