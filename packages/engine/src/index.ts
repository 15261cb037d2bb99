export { Engine, type EngineOptions } from "./Engine.js";
export { isWorldRefusal, type WorldRefusal } from "./world/WorldGuard.js";
export { compareAndSetGroups, groupEndsOf, type CasGroupsResult, type CasTarget } from "./world/CasGroups.js";
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
export {
  OPERATION_KINDS,
  OPERATION_STATUSES,
  hasEnded,
  isSettled,
  isUndoable,
  operationKind,
  type OperationKind,
  type OperationStatus,
} from "./core/OperationStatus.js";
export { PLAN_ORIGINS, type PlanOrigin } from "./core/PreparedPlan.js";
export { SqlJournal } from "./store/SqlJournal.js";
export { openJournal, openSqlDb, isPostgresUrl } from "./store/OpenJournal.js";
export { StoreFailure, type SqlDb, type StoreError } from "./store/SqlDb.js";
export { SCHEMA_VERSION } from "./store/Migrations.js";
export {
  DEFAULT_ENGINE_LIMITS,
  MAX_SLICE_WINDOW,
  PROJECT_ID,
  type EngineLimits,
  type ProjectConfig,
  type Principal,
  type RequestContext,
} from "./core/Project.js";
export type { BuildPrepareInput, ExpectedBlock } from "./plan/Prepare.js";
export type { OperationStatusView, PrepareView, ConflictView, UndoPrepareView } from "./project/Views.js";
export { expandInspectedBlocks, regionOf, type RegionInspectInput, type RegionInspectView, type InspectedBlock } from "./world/Inspect.js";
export type { RegionSlab } from "./world/RegionSlabs.js";
export type { SurfaceInput, SurfaceView } from "./world/Surface.js";
export type { OperationListInput, OperationListView, OperationSummary } from "./project/OperationList.js";
export { CHANGE_SOURCES, type BlockChange, type ChangePage, type ChangeSource } from "./project/ChangeFeed.js";
export type { PartDetailView, PartView } from "./parts/Parts.js";
export type { PartDiffView, PartDiffShare } from "./parts/PartDiff.js";
export type { PartDiffInput } from "./parts/PartDesk.js";
export {
  mergeOutcome,
  type MergeOutcome,
  type ManualEditPolicy,
  type ManualEditsView,
  type ManualEditSample,
  type Held,
  type Designed,
} from "./merge/ManualEdits.js";
export { coverBoxes } from "./merge/BoxCover.js";
export { ConnectionRules } from "./plan/ConnectionRules.js";
export { connectPlacement, type NeighbourUpdate } from "./plan/Connections.js";
export type { RecoveryReview } from "./recovery/Recovery.js";
export type { ProjectContextView } from "./project/ProjectContext.js";
