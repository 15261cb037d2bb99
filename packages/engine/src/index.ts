export { Engine, type EngineOptions, type ApplyInput, type UndoPrepareView } from "./Engine.js";
export {
  HostCrash,
  isHostCrash,
  SliceRefused,
  isSliceRefused,
  ChunkNotLoaded,
  isChunkNotLoaded,
  MAX_ADAPTER_READ,
  type AdapterCapability,
  type CasCheck,
  type CasMismatch,
  type CasResult,
  type CasSlice,
  type CasWrite,
  type EventPage,
  type RegionRead,
  type WorldAdapter,
  type WorldEvent,
  type WorldInfo,
} from "./WorldAdapter.js";
export type { Journal, OperationStatus, OperationRecord, SliceRecord, PartRecord, ConflictSample } from "./Journal.js";
export { MemoryJournal } from "./MemoryJournal.js";
export { SqliteJournal } from "./SqliteJournal.js";
export { DEFAULT_ENGINE_LIMITS, PROJECT_ID, type EngineLimits, type ProjectConfig, type Principal, type RequestContext } from "./Project.js";
export type { BuildPrepareInput, ExpectedBlock } from "./Prepare.js";
export type { OperationStatusView, PrepareView, ConflictView } from "./Views.js";
export { expandInspectedBlocks, type RegionInspectInput, type RegionInspectView, type InspectedBlock } from "./Inspect.js";
export type { SurfaceInput, SurfaceView } from "./Surface.js";
export type { OperationListInput, OperationListView, OperationSummary } from "./OperationList.js";
export type { BlockChange, ChangePage } from "./ChangeFeed.js";
export type { PartView } from "./Parts.js";
export type { RecoveryReview } from "./Recovery.js";
export type { ProjectContextView } from "./ProjectContext.js";
export type { Vec3 } from "./Geometry.js";
export type { Box3 } from "@mcb/recipe";
