import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AnvilWorld, type AnvilWorldOptions, type PersonBlock } from "@mcb/adapter-anvil";
import { WorldDirectory } from "@mcb/adapter-memory";
import type { BlockRegistry } from "@mcb/blocks";
import { writeJsonAtomic } from "./JsonFile.js";

/** The embedded world's identity, kept beside the save (the journal is bound to it). */
interface WorldIdentity {
  readonly worldId: string;
  readonly epoch: number;
}

const IDENTITY = "world-id.json";
/** The save folder, the folder a conversion builds the save in, and where the old format waits to be removed. */
const SAVE = "world",
  BUILDING = "world.converting",
  OLD = "world.format1";

function readIdentity(dir: string): WorldIdentity | null {
  const path = join(dir, IDENTITY);
  if (!existsSync(path)) return null;
  const raw = JSON.parse(readFileSync(path, "utf8")) as Partial<WorldIdentity>;
  if (typeof raw.worldId !== "string" || typeof raw.epoch !== "number") throw new Error(`${path}: not a world identity`);
  return { worldId: raw.worldId, epoch: raw.epoch };
}

function writeIdentity(dir: string, id: WorldIdentity): void {
  writeJsonAtomic(join(dir, IDENTITY), id, { mode: 0o644 });
}

/** `asked`: the registry asked for (--mc-version), else the save's own (a new one: the newest). */
function options(dir: string, saveDir: string, id: WorldIdentity, asked: BlockRegistry | undefined): AnvilWorldOptions {
  return {
    dir: saveDir,
    worldId: id.worldId,
    epoch: id.epoch,
    ...(asked === undefined ? {} : { registry: asked }),
    flatGround: true,
    eventDir: join(dir, "world-events"),
  };
}

/**
 * Copies a world of mcb's first format (`world/world.json` and JSON sections) into a new save
 * with flat ground: every block that was not air, with its block-entity data, at the same place
 * (the ground fills what was air below y 64), and its event log, so cursors carry on. Built aside
 * and swapped in by renames: a crash at any point leaves the old world or the finished save.
 */
async function convertFormat1(dir: string, registry: BlockRegistry | undefined, log: (line: string) => void): Promise<void> {
  const oldDir = join(dir, SAVE);
  const loaded = new WorldDirectory(oldDir).load();
  if (loaded === null) return;
  const id: WorldIdentity = { worldId: loaded.meta.worldId, epoch: loaded.meta.epoch };
  rmSync(join(dir, BUILDING), { recursive: true, force: true });
  mkdirSync(join(dir, "world-events"), { recursive: true });
  if (existsSync(join(oldDir, "events.jsonl"))) writeFileSync(join(dir, "world-events", "events.jsonl"), readFileSync(join(oldDir, "events.jsonl")));
  const save = await AnvilWorld.open(options(dir, join(dir, BUILDING), id, registry));
  let blocks = 0;
  try {
    for (const [key, section] of loaded.store.sections) {
      const [sx, sy, sz] = key.split(",").map(Number) as [number, number, number];
      const batch: PersonBlock[] = [];
      for (let i = 0; i < 4096; i++) {
        const state = section.palette[section.data[i]!]!;
        if (state === "minecraft:air") continue;
        const data = section.entities.get(i);
        batch.push({ x: sx * 16 + (i & 15), y: sy * 16 + (i >> 8), z: sz * 16 + ((i >> 4) & 15), state, ...(data === undefined ? {} : { data }) });
      }
      if (batch.length > 0) save.externalEdits(batch, { emitEvent: false });
      blocks += batch.length;
    }
  } finally {
    await save.close();
  }
  writeIdentity(dir, id);
  renameSync(oldDir, join(dir, OLD));
  renameSync(join(dir, BUILDING), oldDir);
  rmSync(join(dir, OLD), { recursive: true, force: true });
  log(`mcb: converted the embedded world (${blocks} blocks in ${loaded.store.sections.size} sections) to a Minecraft save in ${oldDir}`);
}

/**
 * Opens mcb's own world: a Minecraft save in `<state>/world` with flat ground (created on first
 * use in the newest version, 26.2, or the one asked for; one made by an earlier mcb stays in its
 * own version, 26.1), chunks made as they are built in, its identity in `<state>/world-id.json`
 * and the log of people's edits in `<state>/world-events/`. A world of the first format is
 * converted once.
 */
export async function openEmbeddedWorld(dir: string, registry: BlockRegistry | undefined, log: (line: string) => void): Promise<AnvilWorld> {
  if (existsSync(join(dir, OLD)) && existsSync(join(dir, SAVE, "level.dat"))) rmSync(join(dir, OLD), { recursive: true, force: true });
  if (existsSync(join(dir, OLD)) && !existsSync(join(dir, SAVE))) renameSync(join(dir, OLD), join(dir, SAVE)); // a crash between the renames
  if (existsSync(join(dir, SAVE, "world.json"))) await convertFormat1(dir, registry, log);
  rmSync(join(dir, BUILDING), { recursive: true, force: true });
  let id = readIdentity(dir);
  if (id === null) {
    id = { worldId: randomUUID(), epoch: 1 };
    writeIdentity(dir, id);
  }
  return AnvilWorld.open(options(dir, join(dir, SAVE), id, registry));
}
