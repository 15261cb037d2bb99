export { MemoryWorld, type MemoryWorldOptions, type ExternalEditOptions, type ExternalEdit } from "./MemoryWorld.js";
export { Faults, CRASH_POINTS, type CrashPoint } from "./Faults.js";
