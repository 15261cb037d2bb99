export { Engine, type EngineOptions } from "./Engine.js";
export { isWorldRefusal, type WorldRefusal } from "./world/WorldGuard.js";
export { compareAndSetGroups, groupEndsOf } from "./world/CasGroups.js";
export type { ApplyInput } from "./apply/ApplyAdmission.js";
export {
  HostCrash,
  isHostCrash,
  SliceRefused,
  isSliceRefused,
  ChunkNotLoaded,
  isChunkNotLoaded,
  MAX_ADAPTER_READ,
  type AdapterCapability,
  type CasBatchResult,
  type CasCheck,
  type CasMismatch,
  type CasResult,
  type CasSlice,
  type CasWrite,
  type EventPage,
  type RegionRead,
  type SavedMarks,
  type WorldAdapter,
  type WorldEvent,
  type WorldInfo,
  type WriteRefusal,
} from "./world/WorldAdapter.js";
export type { Journal, OperationRecord, SliceRecord, PartRecord, ConflictSample, TouchKind } from "./store/Journal.js";
export { OPERATION_KINDS, OPERATION_STATUSES, hasEnded, isSettled, type OperationKind, type OperationStatus } from "./core/OperationStatus.js";
export { type PlanOrigin } from "./core/PreparedPlan.js";
export { SqlJournal } from "./store/SqlJournal.js";
export { openJournal, openSqlDb } from "./store/OpenJournal.js";
export { StoreFailure, type SqlDb } from "./store/SqlDb.js";
export { DEFAULT_ENGINE_LIMITS, MAX_SLICE_WINDOW, type EngineLimits, type ProjectConfig, type RequestContext } from "./core/Project.js";
export type { BuildPrepareInput } from "./plan/Prepare.js";
export type { OperationStatusView, PrepareView } from "./project/Views.js";
export { expandInspectedBlocks, regionOf, type RegionInspectView } from "./world/Inspect.js";
export type { RegionSlab } from "./world/RegionSlabs.js";
export type { OperationSummary } from "./project/OperationList.js";
export { CHANGE_SOURCES } from "./project/ChangeFeed.js";
export type { PartView } from "./parts/Parts.js";
export type { PartDiffView } from "./parts/PartDiff.js";
export { type ManualEditPolicy, type ManualEditsView } from "./merge/ManualEdits.js";
export { ConnectionRules } from "./plan/ConnectionRules.js";
export { connectPlacement } from "./plan/Connections.js";
export type { RecoveryReview } from "./recovery/Recovery.js";
export type { ProjectContextView } from "./project/ProjectContext.js";
export type { PlanWrites } from "./project/PlanWrites.js";
