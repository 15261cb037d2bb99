export { atomicWriteFile, syncDirectory } from "./AtomicFile.js";
export { WorldEventLog } from "./WorldEventLog.js";
export { WriteMarks } from "./WriteMarks.js";
export { compactPalette } from "./Palette.js";
export { BoxRead, type SectionBlocks } from "./BoxRead.js";
export { casInOrder } from "./CasInOrder.js";
