import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SaveSummary } from "@mcb/adapter-anvil";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { readJson, writeJsonAtomic } from "./JsonFile.js";

/** The file of a state directory that names the save it journals for. */
export const SAVE_BINDING = "save.json";
/** The embedded world's identity file (a state directory holding mcb's own world). */
export const EMBEDDED_IDENTITY = "world-id.json";

/** What a state directory records of its save: the identity its journal is bound to, and how to know the save again. */
interface SaveBinding {
  readonly worldId: string;
  readonly epoch: number;
  /** level.dat's `LevelName` when last opened (a person may rename the world in the game). */
  readonly levelName: string;
  /** The world's seed: the same save wherever its folder goes. */
  readonly seed: string | null;
  /** The folder when last opened. */
  readonly path: string;
}

function readBinding(stateDir: string): SaveBinding | null {
  const raw = readJson(join(stateDir, SAVE_BINDING)) as Partial<SaveBinding> | null;
  if (raw === null) return null;
  if (typeof raw.worldId !== "string" || typeof raw.epoch !== "number" || typeof raw.path !== "string")
    throw new Error(`${join(stateDir, SAVE_BINDING)}: not a save binding`);
  return { worldId: raw.worldId, epoch: raw.epoch, levelName: raw.levelName ?? "", seed: raw.seed ?? null, path: raw.path };
}

const describe = (levelName: string, path: string): string => `"${levelName.slice(0, 60)}" (${path})`;

/**
 * The identity a person's save gets in a state directory, so that one state directory journals
 * for one save (docs/SAVES.md "One state per save"): the first save opened with it is recorded in
 * `save.json` (its identity, level.dat's name and seed, its folder); later it is recognised by its
 * seed (or, for a save without one, by its folder or its name), so a save moved or renamed keeps
 * its history and undo, and the record follows it. A state directory holding another save, or
 * mcb's own embedded world, is refused (`invalid_request`, reason `another_world`) naming both. A
 * state directory of an earlier mcb (a journal, no record) keeps the identity that mcb derived from
 * the folder.
 */
export function bindSave(stateDir: string, save: SaveSummary, log: (line: string) => void): Result<{ readonly worldId: string; readonly epoch: number }> {
  if (existsSync(join(stateDir, EMBEDDED_IDENTITY)))
    return fail(
      mcbError(
        "invalid_request",
        `the state directory ${stateDir} holds mcb's own embedded world, not the save ${describe(save.levelName, save.dir)}: give the save a state directory of its own (--state <dir>)`,
        { reason: "another_world", state: stateDir, save: save.dir },
      ),
    );
  const bound = readBinding(stateDir);
  if (bound === null) {
    // An earlier mcb named a save by its folder; a state directory it used keeps that identity.
    const legacy = existsSync(join(stateDir, "journal.db"));
    const worldId = legacy ? `save-${createHash("sha256").update(save.dir).digest("hex").slice(0, 32)}` : `save-${randomUUID()}`;
    writeJsonAtomic(join(stateDir, SAVE_BINDING), { worldId, epoch: 1, levelName: save.levelName, seed: save.seed, path: save.dir }, { mode: 0o644 });
    return ok({ worldId, epoch: 1 });
  }
  const sameSeed = bound.seed !== null && save.seed !== null && bound.seed === save.seed;
  const same =
    sameSeed || ((bound.seed === null || save.seed === null) && (bound.path === save.dir || (bound.levelName !== "" && bound.levelName === save.levelName)));
  if (!same)
    return fail(
      mcbError(
        "invalid_request",
        `the state directory ${stateDir} belongs to the save ${describe(bound.levelName, bound.path)}${bound.seed === null ? "" : ` (seed ${bound.seed})`}, not to ${describe(save.levelName, save.dir)}${save.seed === null ? "" : ` (seed ${save.seed})`}: give each save its own --state`,
        {
          reason: "another_world",
          state: stateDir,
          bound_to: { level_name: bound.levelName, path: bound.path },
          save: { level_name: save.levelName, path: save.dir },
        },
      ),
    );
  if (bound.path !== save.dir || bound.levelName !== save.levelName) {
    if (bound.path !== save.dir) log(`mcb: the save ${describe(save.levelName, save.dir)} was at ${bound.path}; its history and undo follow it`);
    if (bound.levelName !== save.levelName) log(`mcb: the save was renamed from "${bound.levelName}" to "${save.levelName}"; its history and undo stay`);
    writeJsonAtomic(join(stateDir, SAVE_BINDING), { ...bound, levelName: save.levelName, seed: bound.seed ?? save.seed, path: save.dir }, { mode: 0o644 });
  }
  return ok({ worldId: bound.worldId, epoch: bound.epoch });
}

/** A state directory recorded as a save's is refused for the embedded world (reason `another_world`), naming the save. */
export function embeddedRefusal(stateDir: string): Result<null> {
  const bound = readBinding(stateDir);
  if (bound === null) return ok(null);
  return fail(
    mcbError(
      "invalid_request",
      `the state directory ${stateDir} belongs to the save ${describe(bound.levelName, bound.path)}, not to mcb's own world: pass --world save:${bound.path}, or another --state for the embedded world`,
      { reason: "another_world", state: stateDir, bound_to: { level_name: bound.levelName, path: bound.path } },
    ),
  );
}
