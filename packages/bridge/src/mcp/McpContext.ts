import type { BlockRegistry, MaterialCatalog } from "@mcb/blocks";
import type { Engine, RequestContext, WorldAdapter } from "@mcb/engine";
import type { SchematicLibrary } from "@mcb/schematic";
import type { CameraStore } from "./CameraStore.js";
import type { CaptureCache } from "./CaptureCache.js";
import type { TerrainCache } from "./TerrainCache.js";

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
}
