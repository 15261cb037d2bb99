export { MemoryWorld, type MemoryWorldOptions, type ExternalEditOptions, type ExternalEdit } from "./MemoryWorld.js";
export { WorldDirectory, type WorldMeta } from "./WorldDirectory.js";
