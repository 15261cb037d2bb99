export { MemoryWorld, type MemoryWorldOptions, type ExternalEditOptions, type ExternalEdit } from "./MemoryWorld.js";
export { Faults, CRASH_POINTS, type CrashPoint } from "./Faults.js";
export { EventLogFile, type LoggedEvent } from "./EventLogFile.js";
export { WorldDirectory, type WorldMeta } from "./WorldDirectory.js";
export { eventPage } from "./EventPage.js";
export { atomicWriteFile, syncDirectory } from "./AtomicFile.js";
export { compactPalette } from "./VoxelStore.js";
