"""An independent reader of Minecraft region files for mcb's save tests, in the Python standard
library only (zlib, gzip, struct): its own region header, NBT and packed-array code, written from
the file format's public description, sharing nothing with mcb's TypeScript reader.

  stdlib_region.py chunks REGION_DIR    stdin: [[cx, cz], ...]
    stdout: {"cx,cz": {"DataVersion": n | null, "layout": "sections" | "level_palette" | "level_numeric",
                       "Status": s | null, "sections": {"Y": {"palette": [...], "indices": [4096 ints]}}}}

States are printed as the file holds them: "namespace:id[key=value,...]" with keys sorted, and
for numeric chunks (1.12 and older) "numeric:ID:META". Nothing is upgraded or completed.
"""
import json
import math
import os
import struct
import sys
import zlib


class Reader:
    def __init__(self, data):
        self.d = data
        self.i = 0

    def take(self, n):
        if self.i + n > len(self.d):
            raise ValueError("NBT ends early")
        b = self.d[self.i:self.i + n]
        self.i += n
        return b

    def u8(self):
        return self.take(1)[0]

    def num(self, fmt, n):
        return struct.unpack(">" + fmt, self.take(n))[0]

    def string(self):
        n = self.num("H", 2)
        return self.take(n).decode("utf-8", "replace")

    def payload(self, tag):
        if tag == 1:
            return self.num("b", 1)
        if tag == 2:
            return self.num("h", 2)
        if tag == 3:
            return self.num("i", 4)
        if tag == 4:
            return self.num("q", 8)
        if tag == 5:
            return self.num("f", 4)
        if tag == 6:
            return self.num("d", 8)
        if tag == 7:
            n = self.num("i", 4)
            return self.take(n)
        if tag == 8:
            return self.string()
        if tag == 9:
            elem = self.u8()
            n = self.num("i", 4)
            return [self.payload(elem) for _ in range(n)]
        if tag == 10:
            out = {}
            while True:
                t = self.u8()
                if t == 0:
                    return out
                name = self.string()
                out[name] = self.payload(t)
        if tag == 11:
            n = self.num("i", 4)
            return list(struct.unpack(">%di" % n, self.take(4 * n)))
        if tag == 12:
            n = self.num("i", 4)
            return list(struct.unpack(">%dq" % n, self.take(8 * n)))
        raise ValueError("unknown tag %d" % tag)

    def root(self):
        t = self.u8()
        if t != 10:
            raise ValueError("root is not a compound")
        self.string()
        return self.payload(10)


def read_chunk(path, cx, cz):
    with open(path, "rb") as f:
        data = f.read()
    i = (cx & 31) + (cz & 31) * 32
    entry = struct.unpack(">I", data[i * 4:i * 4 + 4])[0]
    if entry == 0:
        return None
    start = (entry >> 8) * 4096
    length = struct.unpack(">I", data[start:start + 4])[0]
    kind = data[start + 4]
    body = data[start + 5:start + 4 + length]
    if kind == 1:
        import gzip
        raw = gzip.decompress(body)
    elif kind == 2:
        raw = zlib.decompress(body)
    elif kind == 3:
        raw = body
    else:
        raise ValueError("compression %d is not read here" % kind)
    return Reader(raw).root()


def unpack(longs, bits, count, spanning):
    mask = (1 << bits) - 1
    values = []
    if spanning:
        big = 0
        for k, v in enumerate(longs):
            big |= (v & 0xFFFFFFFFFFFFFFFF) << (64 * k)
        for n in range(count):
            values.append((big >> (n * bits)) & mask)
        return values
    per = 64 // bits
    for v in longs:
        u = v & 0xFFFFFFFFFFFFFFFF
        for k in range(per):
            if len(values) == count:
                break
            values.append((u >> (k * bits)) & mask)
    return values


def state_of(entry):
    props = entry.get("Properties") or {}
    name = entry["Name"]
    if not props:
        return name
    return name + "[" + ",".join("%s=%s" % (k, props[k]) for k in sorted(props)) + "]"


def nibble(arr, i):
    b = arr[i >> 1]
    return (b >> 4) & 15 if i & 1 else b & 15


def decode(root):
    dv = root.get("DataVersion")
    out = {"DataVersion": dv, "sections": {}}
    if "Level" in root:
        level = root["Level"]
        out["Status"] = level.get("Status")
        secs = level.get("Sections") or []
        numeric = any("Blocks" in s for s in secs)
        out["layout"] = "level_numeric" if numeric else "level_palette"
        for s in secs:
            y = s["Y"]
            if numeric and "Blocks" in s:
                blocks, data, add = s["Blocks"], s["Data"], s.get("Add")
                keys, palette, idx = {}, [], []
                for i in range(4096):
                    bid = blocks[i] | ((nibble(add, i) << 8) if add else 0)
                    key = "numeric:%d:%d" % (bid, nibble(data, i))
                    if key not in keys:
                        keys[key] = len(palette)
                        palette.append(key)
                    idx.append(keys[key])
                out["sections"][str(y)] = {"palette": palette, "indices": idx}
            elif "Palette" in s:
                palette = [state_of(e) for e in s["Palette"]]
                bits = max(4, math.ceil(math.log2(len(palette))))
                idx = unpack(s["BlockStates"], bits, 4096, dv is not None and dv < 2527)
                out["sections"][str(y)] = {"palette": palette, "indices": idx}
        return out
    out["layout"] = "sections"
    out["Status"] = root.get("Status")
    for s in root.get("sections") or []:
        bs = s.get("block_states")
        if bs is None:
            continue
        palette = [state_of(e) for e in bs["palette"]]
        if len(palette) == 1:
            idx = [0] * 4096
        else:
            bits = max(4, math.ceil(math.log2(len(palette))))
            idx = unpack(bs["data"], bits, 4096, False)
        out["sections"][str(s["Y"])] = {"palette": palette, "indices": idx}
    return out


def main():
    mode, region_dir = sys.argv[1], sys.argv[2]
    if mode != "chunks":
        raise SystemExit("unknown mode " + mode)
    result = {}
    for cx, cz in json.load(sys.stdin):
        path = os.path.join(region_dir, "r.%d.%d.mca" % (cx >> 5, cz >> 5))
        root = read_chunk(path, cx, cz)
        result["%d,%d" % (cx, cz)] = None if root is None else decode(root)
    json.dump(result, sys.stdout)


main()
