import { join } from "node:path";
import type { BlockRegistry, MaterialCatalog } from "@mcb/blocks";
import type { Engine, RequestContext, WorldAdapter } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, SchematicLibrary, type SchematicLimits } from "@mcb/schematic";
import { CameraStore } from "../capture/CameraStore.js";
import { CaptureCache } from "../capture/CaptureCache.js";
import { TerrainCache } from "../jobs/TerrainCache.js";
import { BatchJobs } from "../jobs/BatchJobs.js";
import { BatchUndoJobs } from "../jobs/BatchUndoJobs.js";
import type { JobProgressSink } from "../jobs/JobProgress.js";
import type { BatchHost } from "../jobs/Batch.js";
import type { Workspace } from "../world/Workspace.js";

/** The MCP server's name as clients and agents see it (ACP's mcpServers entry, permission checks). */
export const MCP_SERVER_NAME = "minecraft-builder";
/** The version the MCP server reports. */
export const MCB_VERSION = "0.1.0";

/** Everything the MCP tools act on: one project of one engine, plus the local stores. */
export interface McpContext {
  readonly engine: Engine;
  readonly ctx: RequestContext;
  readonly registry: BlockRegistry;
  readonly catalog: MaterialCatalog;
  /** Read-only world access for the camera renderer (never writes). */
  readonly world: Pick<WorldAdapter, "read" | "info">;
  readonly library: SchematicLibrary;
  readonly terrain: TerrainCache;
  readonly cameras: CameraStore;
  readonly captures: CaptureCache;
  /** terrain_apply's background jobs (progress files in `<dir>/terrain`). */
  readonly terrainJobs: BatchJobs;
  /** schematic_paste's background jobs (progress files in `<dir>/batches`, as `mcb schem import` keeps them). */
  readonly pasteJobs: BatchJobs;
  /** build_prepare's background jobs: recipes over one plan's size applied in tiles (progress files in `<dir>/builds`, as `mcb build` keeps them). */
  readonly buildJobs: BatchJobs;
  /** batch_undo's background jobs: whole pastes, terrain jobs and big builds undone. */
  readonly undoJobs: BatchUndoJobs;
  /** Set once the process was asked to stop (Ctrl-C): batches start no more tiles. */
  readonly stop: BatchHost["interrupt"];
  readonly log: (line: string) => void;
  /**
   * The embedded world: an operation that ends is saved before its answer (one save per operation),
   * so a reported operation says `saved: true`, as the CLI's do. A server saves on its own schedule.
   */
  readonly saveOnEnd: boolean;
  /**
   * In chat: shows a previewed plan to the player who asked (ghost blocks in game where the server
   * can) and keeps it for `/ai apply`; what the player was told. Absent elsewhere.
   */
  readonly showPlan?: (planId: string) => Promise<string>;
}

/** Stores that several MCP sessions of one process share (the chat's projects share cameras). */
export interface SharedStores {
  readonly cameras?: CameraStore;
  readonly terrain?: TerrainCache;
  readonly captures?: CaptureCache;
  /** The process's stop signal (`mcb mcp`: its Ctrl-C handling); default: never. */
  readonly stop?: BatchHost["interrupt"];
  readonly log?: (line: string) => void;
  readonly showPlan?: McpContext["showPlan"];
  /** Told how background jobs go (the chat's progress lines). */
  readonly jobProgress?: JobProgressSink;
  /** The background jobs, when several MCP sessions of one process share them (the holder's): one job runs once. */
  readonly jobs?: Pick<McpContext, "terrainJobs" | "pasteJobs" | "buildJobs" | "undoJobs">;
}

/** Stores every MCP session of one holder shares (`mcpContextFor`'s `shared`). */
export function sharedStoresFor(dir: string, registry: Workspace["registry"]): Required<Pick<SharedStores, "cameras" | "terrain" | "captures" | "jobs">> {
  return {
    cameras: new CameraStore(dir),
    terrain: new TerrainCache(32, { dir: join(dir, "terrain", "recipes"), registry }),
    captures: new CaptureCache(),
    jobs: {
      terrainJobs: new BatchJobs(join(dir, "terrain"), "terrain"),
      pasteJobs: new BatchJobs(join(dir, "batches"), "paste"),
      buildJobs: new BatchJobs(join(dir, "builds"), "build"),
      undoJobs: new BatchUndoJobs(dir),
    },
  };
}

/**
 * The one way to assemble an MCP context: `mcb mcp`, the chat's relay and the tests use it, so
 * every front end gets the same stores and the same limits `policy` for the schematic library. `w`
 * is a workspace, or a library caller's own engine, registry, world and directory.
 */
export function mcpContextFor(
  w: Pick<Workspace, "engine" | "registry" | "dir"> & { readonly world: McpContext["world"]; readonly embedded?: unknown },
  ctx: RequestContext,
  policy: SchematicLimits = DEFAULT_SCHEMATIC_LIMITS,
  shared: SharedStores = {},
): McpContext {
  return {
    engine: w.engine,
    ctx,
    registry: w.registry,
    catalog: w.engine.materials,
    world: w.world,
    library: new SchematicLibrary(join(w.dir, "schematics"), w.registry, policy),
    terrain: shared.terrain ?? new TerrainCache(32, { dir: join(w.dir, "terrain", "recipes"), registry: w.registry }),
    cameras: shared.cameras ?? new CameraStore(w.dir),
    captures: shared.captures ?? new CaptureCache(),
    ...(shared.jobs ?? {
      terrainJobs: new BatchJobs(join(w.dir, "terrain"), "terrain", shared.jobProgress),
      pasteJobs: new BatchJobs(join(w.dir, "batches"), "paste", shared.jobProgress),
      buildJobs: new BatchJobs(join(w.dir, "builds"), "build", shared.jobProgress),
      undoJobs: new BatchUndoJobs(w.dir, shared.jobProgress),
    }),
    stop: shared.stop ?? { requested: false, add: () => {} },
    log: shared.log ?? (() => {}),
    saveOnEnd: w.embedded !== undefined && w.embedded !== null,
    ...(shared.showPlan === undefined ? {} : { showPlan: shared.showPlan }),
  };
}
