/** NBT tag ids (Java edition, big-endian). */
export const TAG = {
  End: 0,
  Byte: 1,
  Short: 2,
  Int: 3,
  Long: 4,
  Float: 5,
  Double: 6,
  ByteArray: 7,
  String: 8,
  List: 9,
  Compound: 10,
  IntArray: 11,
  LongArray: 12,
} as const;

export type TagId = (typeof TAG)[keyof typeof TAG];

export const TAG_NAMES: readonly string[] = [
  "end",
  "byte",
  "short",
  "int",
  "long",
  "float",
  "double",
  "byte_array",
  "string",
  "list",
  "compound",
  "int_array",
  "long_array",
];

/**
 * A decoded NBT value (only small parts of a file are decoded: block entities, entities,
 * metadata; bulk arrays are read in place). Compounds keep their keys in file order.
 */
export type NbtValue =
  | { readonly t: typeof TAG.Byte; readonly v: number }
  | { readonly t: typeof TAG.Short; readonly v: number }
  | { readonly t: typeof TAG.Int; readonly v: number }
  | { readonly t: typeof TAG.Long; readonly v: bigint }
  | { readonly t: typeof TAG.Float; readonly v: number }
  | { readonly t: typeof TAG.Double; readonly v: number }
  | { readonly t: typeof TAG.ByteArray; readonly v: Uint8Array }
  | { readonly t: typeof TAG.String; readonly v: string }
  | { readonly t: typeof TAG.List; readonly elem: TagId; readonly v: readonly NbtValue[] }
  | { readonly t: typeof TAG.Compound; readonly v: ReadonlyMap<string, NbtValue> }
  | { readonly t: typeof TAG.IntArray; readonly v: Int32Array }
  | { readonly t: typeof TAG.LongArray; readonly v: BigInt64Array };

export type NbtCompound = Extract<NbtValue, { t: typeof TAG.Compound }>;

export const nbt = {
  byte: (v: number): NbtValue => ({ t: TAG.Byte, v }),
  short: (v: number): NbtValue => ({ t: TAG.Short, v }),
  int: (v: number): NbtValue => ({ t: TAG.Int, v }),
  long: (v: bigint): NbtValue => ({ t: TAG.Long, v }),
  double: (v: number): NbtValue => ({ t: TAG.Double, v }),
  string: (v: string): NbtValue => ({ t: TAG.String, v }),
  byteArray: (v: Uint8Array): NbtValue => ({ t: TAG.ByteArray, v }),
  intArray: (v: ArrayLike<number>): NbtValue => ({ t: TAG.IntArray, v: Int32Array.from(v) }),
  longArray: (v: BigInt64Array): NbtValue => ({ t: TAG.LongArray, v }),
  list: (elem: TagId, v: readonly NbtValue[]): NbtValue => ({ t: TAG.List, elem, v }),
  compound: (entries: Iterable<readonly [string, NbtValue]>): NbtCompound => ({ t: TAG.Compound, v: new Map(entries) }),
};

/** A field of a compound with the expected tag, or undefined. */
export function get<T extends TagId>(c: NbtCompound, key: string, t: T): Extract<NbtValue, { t: T }> | undefined {
  const v = c.v.get(key);
  return v !== undefined && v.t === t ? (v as Extract<NbtValue, { t: T }>) : undefined;
}
