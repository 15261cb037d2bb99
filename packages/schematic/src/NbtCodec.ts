import { createRequire } from "node:module";
import nbt from "prismarine-nbt";

/**
 * Big-endian NBT through prismarine-nbt's protocol definition, with one change: byte arrays are
 * zero-copy `Buffer` views instead of arrays of numbers (a 1M-block `BlockData` would otherwise
 * become a million-element JS array). Everything else (compounds, lists, names) is prismarine-nbt's.
 */
const require = createRequire(import.meta.url);
const { ProtoDefCompiler } = require("protodef").Compiler as { ProtoDefCompiler: new () => Compiler };

interface Compiler {
  addTypes(types: unknown): void;
  compileProtoDefSync(): Proto;
}
interface Proto {
  parsePacketBuffer(type: string, buffer: Buffer, offset?: number): { data: NbtRoot; metadata: { size: number } };
  createPacketBuffer(type: string, value: NbtRoot): Buffer;
  setVariable(name: string, value: unknown): void;
}

export type NbtTag =
  | { type: "byte"; value: number }
  | { type: "short"; value: number }
  | { type: "int"; value: number }
  | { type: "float"; value: number }
  | { type: "double"; value: number }
  | { type: "long"; value: [number, number] }
  | { type: "string"; value: string }
  | { type: "byteArray"; value: Buffer }
  | { type: "intArray"; value: number[] }
  | { type: "longArray"; value: [number, number][] }
  | { type: "list"; value: { type: string; value: unknown[] } }
  | { type: "compound"; value: Record<string, NbtTag> };

export interface NbtRoot {
  type: "compound";
  name: string;
  value: Record<string, NbtTag>;
}

const byteArray = {
  Read: {
    byteArray: [
      "native",
      (buffer: Buffer, offset: number) => {
        if (offset + 4 > buffer.length) throw new RangeError("byte array length past the end");
        const n = buffer.readInt32BE(offset);
        if (n < 0 || offset + 4 + n > buffer.length) throw new RangeError(`byte array of ${n} bytes past the end`);
        return { value: buffer.subarray(offset + 4, offset + 4 + n), size: 4 + n };
      },
    ],
  },
  Write: {
    byteArray: [
      "native",
      (value: Uint8Array, buffer: Buffer, offset: number) => {
        buffer.writeInt32BE(value.length, offset);
        buffer.set(value, offset + 4);
        return offset + 4 + value.length;
      },
    ],
  },
  SizeOf: { byteArray: ["native", (value: Uint8Array) => 4 + value.length] },
};

function createProto(): Proto {
  const compiler = new ProtoDefCompiler();
  (nbt as unknown as { addTypesToCompiler(kind: string, c: Compiler): void }).addTypesToCompiler("big", compiler);
  // A native type added after the JSON definitions replaces them (protodef keeps the last native).
  compiler.addTypes(byteArray);
  return compiler.compileProtoDefSync();
}

let proto: Proto | undefined;
function getProto(): Proto {
  proto ??= createProto();
  return proto;
}

/** Parses uncompressed big-endian NBT; throws on malformed input (callers turn it into a result). */
export function parseNbt(data: Buffer): { root: NbtRoot; size: number } {
  const p = getProto();
  p.setVariable("noArraySizeCheck", false);
  const parsed = p.parsePacketBuffer("nbt", data, 0);
  return { root: parsed.data, size: parsed.metadata.size };
}

export function writeNbt(root: NbtRoot): Buffer {
  return getProto().createPacketBuffer("nbt", root);
}
