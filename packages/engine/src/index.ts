export { Engine, type EngineOptions } from "./Engine.js";
export type { WorldRefusal } from "./WorldGuard.js";
export { compareAndSetGroups, groupEndsOf, type CasGroupsResult, type CasTarget } from "./CasGroups.js";
export type { ApplyInput } from "./ApplyAdmission.js";
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
} from "./WorldAdapter.js";
export type { Journal, OperationRecord, SliceRecord, PartRecord, ConflictSample, TouchKind } from "./Journal.js";
export {
  OPERATION_KINDS,
  OPERATION_STATUSES,
  hasEnded,
  isSettled,
  isUndoable,
  operationKind,
  type OperationKind,
  type OperationStatus,
} from "./OperationStatus.js";
export { PLAN_ORIGINS, type PlanOrigin } from "./PreparedPlan.js";
export { SqlJournal } from "./store/SqlJournal.js";
export { openJournal, openSqlDb, isPostgresUrl } from "./store/OpenJournal.js";
export { StoreFailure, type SqlDb, type StoreError } from "./store/SqlDb.js";
export { SCHEMA_VERSION } from "./store/Migrations.js";
export { DEFAULT_ENGINE_LIMITS, MAX_SLICE_WINDOW, PROJECT_ID, type EngineLimits, type ProjectConfig, type Principal, type RequestContext } from "./Project.js";
export type { BuildPrepareInput, ExpectedBlock } from "./Prepare.js";
export type { OperationStatusView, PrepareView, ConflictView, UndoPrepareView } from "./Views.js";
export { expandInspectedBlocks, type RegionInspectInput, type RegionInspectView, type InspectedBlock } from "./Inspect.js";
export type { SurfaceInput, SurfaceView } from "./Surface.js";
export type { OperationListInput, OperationListView, OperationSummary } from "./OperationList.js";
export { CHANGE_SOURCES, type BlockChange, type ChangePage, type ChangeSource } from "./ChangeFeed.js";
export type { PartDetailView, PartView } from "./Parts.js";
export type { PartDiffView, PartDiffShare } from "./PartDiff.js";
export type { PartDiffInput } from "./PartDesk.js";
export {
  mergeOutcome,
  type MergeOutcome,
  type ManualEditPolicy,
  type ManualEditsView,
  type ManualEditSample,
  type Held,
  type Designed,
} from "./ManualEdits.js";
export { coverBoxes } from "./BoxCover.js";
export { ConnectionRules } from "./ConnectionRules.js";
export { connectPlacement, type NeighbourUpdate } from "./Connections.js";
export type { RecoveryReview } from "./Recovery.js";
export type { ProjectContextView } from "./ProjectContext.js";
