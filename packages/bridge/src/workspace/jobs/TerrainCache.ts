import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { BlockRegistry } from "@mcb/blocks";
import { compileTerrain, type CompiledTerrain } from "@mcb/terrain";
import { writeJsonAtomic } from "../world/JsonFile.js";

/** terrain_id: "t_" and 32 hex digits (content-addressed), the only file names this store reads or writes. */
const TERRAIN_ID = /^t_[0-9a-f]{32}$/;

/**
 * Previewed terrain recipes by terrain_id: the newest 32 compiled in memory and, with a directory,
 * every recipe as `<dir>/<terrain_id>.json` (the newest 256 kept), so a terrain_id stays good across
 * restarts. A stored recipe is compiled again on use and must give the same id (else it is ignored).
 */
export class TerrainCache {
  private readonly entries = new Map<string, CompiledTerrain>();
  constructor(
    readonly capacity = 32,
    private readonly store?: { readonly dir: string; readonly registry: BlockRegistry; readonly keep?: number },
  ) {}

  put(t: CompiledTerrain): void {
    this.entries.delete(t.terrainId);
    this.entries.set(t.terrainId, t);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    if (this.store === undefined) return;
    writeJsonAtomic(join(this.store.dir, `${t.terrainId}.json`), t.recipe, { mode: 0o644, indent: 0 });
    this.prune();
  }

  get(id: string): CompiledTerrain | undefined {
    const t = this.entries.get(id) ?? this.load(id);
    if (t !== undefined) {
      this.entries.delete(id);
      this.entries.set(id, t);
    }
    return t;
  }

  private load(id: string): CompiledTerrain | undefined {
    if (this.store === undefined || !TERRAIN_ID.test(id)) return undefined;
    let text: string;
    try {
      text = readFileSync(join(this.store.dir, `${id}.json`), "utf8");
    } catch {
      return undefined;
    }
    const t = compileTerrain(this.store.registry, JSON.parse(text));
    return t.ok && t.value.terrainId === id ? t.value : undefined;
  }

  /** Keeps the newest `keep` recipes on disk. */
  private prune(): void {
    const dir = this.store!.dir;
    const files = readdirSync(dir).filter((f) => TERRAIN_ID.test(f.replace(/\.json$/, "")) && f.endsWith(".json"));
    const keep = this.store!.keep ?? 256;
    if (files.length <= keep) return;
    const byAge = files.map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of byAge.slice(0, files.length - keep)) rmSync(join(dir, f), { force: true });
  }
}
