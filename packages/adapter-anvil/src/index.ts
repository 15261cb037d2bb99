export { AnvilWorld } from "./AnvilWorld.js";
export type { AnvilWorldOptions, PersonBlock } from "./AnvilWorldOptions.js";
export { SaveError, isSaveError, type SaveErrorCode, type ChunkRef } from "./SaveError.js";
export { FLAT_LAYERS, inspectSave, type SaveLayout, type SaveSummary } from "./SaveFolder.js";
export { flatStateAt } from "./FlatGround.js";
export { COMPRESSION, RegionFile, type Compression } from "./RegionFile.js";
export { decodeChunk, MIN_CHUNK_DATA_VERSION } from "./ChunkCodec.js";
export { saveVersionOf, supportedVersions, type SaveAccess, type SaveVersion } from "./SaveVersion.js";
