import type { CompiledTerrain } from "@mcb/terrain";

/** Previewed terrain recipes by terrain_id, least recently used first out (32, until restart). */
export class TerrainCache {
  private readonly entries = new Map<string, CompiledTerrain>();
  constructor(readonly capacity = 32) {}

  put(t: CompiledTerrain): void {
    this.entries.delete(t.terrainId);
    this.entries.set(t.terrainId, t);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get(id: string): CompiledTerrain | undefined {
    const t = this.entries.get(id);
    if (t !== undefined) this.put(t);
    return t;
  }
}
