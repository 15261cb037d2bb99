export { CrashingWorld, type KillableWorld } from "./CrashingWorld.js";
export { KillableSave } from "./KillableSave.js";
export { Faults, CRASH_POINTS, type CrashPoint } from "./Faults.js";
export { BatchingWorld } from "./BatchingWorld.js";
export { Harness, sharedRegistry, unwrap, boxRecipe, DEFAULT_AREA, PROJECT, OWNER, type HarnessOptions, type JournalKind, type TwinWorld } from "./Harness.js";
export { runModelSuite, commandArbitrary, type ModelSuiteOptions } from "./model/ModelSuite.js";
export { checkAdapterConformance, type AdapterDriver } from "./conformance/AdapterConformance.js";
export { emptyModel, type Model } from "./model/Model.js";
export { PrepareCommand } from "./model/PrepareCommand.js";
export { ApplyCommand } from "./model/ApplyCommand.js";
export { CrashDuringApplyCommand } from "./model/CrashDuringApplyCommand.js";
export { ExternalEditCommand } from "./model/ExternalEditCommand.js";
export { UndoCommand } from "./model/UndoCommand.js";
export { NamedApplyCommand } from "./model/NamedApplyCommand.js";
export { RecoverCommand } from "./model/RecoverCommand.js";
export {
  startMinestomHost,
  freePort,
  MINESTOM_JAR,
  MINESTOM_JARS,
  JAVA,
  type HostBuild,
  type MinestomHost,
  type MinestomHostOptions,
} from "./live/MinestomHost.js";
export { portDriver } from "./live/PortDriver.js";
export { HookedAdapter, LiveEngine, LIVE_AREA, LIVE_OWNER, LIVE_PROJECT } from "./live/LiveWorld.js";
export { amulet, amuletPython } from "./interop/Amulet.js";
export { stdlibBoth, stdlibChunks, stdlibRecords, type StdlibChunk, type StdlibRecords } from "./interop/StdlibRegion.js";
export { PostgresServer, postgresBinDir } from "./postgres/PostgresServer.js";
export { freshPostgresJournal, testPostgresUrl, TEST_POSTGRES_ENV } from "./postgres/TestPostgres.js";
export { BridgeWorld, type SliceSent } from "./shared/BridgeWorld.js";
export { runShared, sharedCmd, SHARED_TTL_MS, type SharedCmd } from "./shared/SharedJournalRun.js";
export { FIXTURES, fixtureRegion, realSave, type RealRegion } from "./interop/RealSave.js";
export { CAVES_AND_CLIFFS_OVERWORLD, cavesAndCliffsSave, zipOf } from "./interop/TallSave.js";
