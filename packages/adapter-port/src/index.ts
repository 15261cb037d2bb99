export { PortWorld, PORT_PROTOCOL, encodeSlice, type ServerStats } from "./PortWorld.js";
export { PortClient, PortCallError, PortTimeout, parsePortUrl, type PortClientOptions } from "./PortClient.js";
export { bitsFor, packIndices, unpackIndices } from "./PackedIndices.js";
export { PortGhosts, MAX_GHOST_BLOCKS, type GhostBlocks, type GhostShown } from "./PortGhosts.js";
