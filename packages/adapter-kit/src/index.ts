export { atomicWriteFile, syncDirectory } from "./AtomicFile.js";
export { EventLogFile, type LoggedEvent } from "./EventLogFile.js";
export { eventPage } from "./EventPage.js";
export { compactPalette } from "./Palette.js";
