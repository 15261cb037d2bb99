export { TAG, TAG_NAMES, nbt, type NbtCompound, type NbtValue, type TagId } from "./NbtValue.js";
export { canonicalNbt, encodeNbt } from "./NbtWriter.js";
export { MAX_NBT_DEPTH, NbtError, NbtReader } from "./NbtReader.js";
export { stripPosition } from "./BlockEntityData.js";
