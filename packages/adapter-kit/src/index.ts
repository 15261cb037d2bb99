export { atomicWriteFile, syncDirectory } from "./AtomicFile.js";
export { EventLogFile, type LoggedEvent } from "./EventLogFile.js";
export { eventPage } from "./EventPage.js";
export { compactPalette } from "./Palette.js";
export { Faults, CRASH_POINTS, type CrashPoint } from "./Faults.js";
