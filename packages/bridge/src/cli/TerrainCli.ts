import { previewTerrainFile, runTerrainBatch } from "../workspace/jobs/TerrainJobs.js";
import { intOption } from "./Args.js";
import type { Command } from "./Command.js";
import { progressBar } from "./Format.js";
import { rateLimits } from "./WorldCli.js";

export const terrainCommand: Command = {
  name: "terrain",
  usage: `  mcb terrain preview <terrain.json> -o <out.png> [--resolution N]   heights as a PNG (no world);
                                     N: at most that many pixels along the longer side (never more than columns)
  mcb terrain batch <terrain.json> [--max-tiles N] [--on-manual-edit keep] [--max-rate N]
                                     apply every tile, resumable`,
  async run(c) {
    const [action, file] = c.args;
    if (action === "preview") {
      if (file === undefined || c.args.length !== 2) return c.usage("terrain preview takes one terrain recipe file");
      const out = c.values.output;
      if (typeof out !== "string") return c.usage("preview: missing -o <out.png>");
      const res = intOption(c.values.resolution);
      if (res === null) return c.usage("--resolution takes a positive integer");
      return c.emit(
        await previewTerrainFile(file, out, res),
        (v) =>
          `${v.terrain_id}: ${v.width}×${v.length} columns, heights ${v.stats.min}..${v.stats.max} (mean ${v.stats.mean}), ${v.tiles.count} tiles of ${v.tiles.size}×${v.tiles.size}, y ${v.floor}..${v.ceiling}\nwrote ${v.output}: ${v.image.width}×${v.image.height} pixels${res !== undefined && Math.max(v.image.width, v.image.height) < res ? ` (--resolution ${res} is a maximum: one pixel per column at most)` : ""}`,
      );
    }
    if (action === "batch") {
      if (file === undefined || c.args.length !== 2) return c.usage("terrain batch takes one terrain recipe file");
      const maxTiles = intOption(c.values["max-tiles"]);
      if (maxTiles === null) return c.usage("--max-tiles takes a positive integer");
      const rate = rateLimits(c);
      if (rate === null) return c.usage("--max-rate takes a positive number of blocks per second");
      const policy = c.values["on-manual-edit"];
      if (policy !== undefined && policy !== "keep" && policy !== "refuse") return c.usage("--on-manual-edit is keep or refuse");
      return c.withWorkspace(
        async (w) => {
          const r = await runTerrainBatch(w, c.file(file), progressBar(c.io.stderr), maxTiles ?? Infinity, policy === "keep" ? "keep" : undefined);
          const code = c.emit(
            r,
            (v) =>
              `${v.terrain_id}: ${v.applied} tiles applied, ${v.empty} unchanged, ${v.conflicts} left in conflict, ${v.unfinished} unfinished; ${v.written_blocks} blocks written (progress in ${v.progress_file})`,
          );
          return r.ok && r.value.unfinished > 0 ? 3 : code;
        },
        { create: true, writes: true, limits: rate },
      );
    }
    return c.usage(action === undefined ? "missing the action (preview or batch)" : `unknown action "${action}"`);
  },
};
