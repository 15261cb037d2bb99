"""An independent reader of Minecraft region files for mcb's save tests, in the Python standard
library only (zlib, gzip, struct): its own region header, NBT and packed-array code, written from
the file format's public description, sharing nothing with mcb's TypeScript reader.

  stdlib_region.py chunks REGION_DIR    stdin: [[cx, cz], ...] (or [cx, cz, [Y, ...]]: only those sections decoded)
    stdout: {"cx,cz": {"DataVersion": n | null, "layout": "sections" | "level_palette" | "level_numeric",
                       "Status": s | null, "sections": {"Y": {"palette": [...], "indices": [4096 ints]}},
                       "digests": {"Y": sha256 of the stored palette and packed data (1.18+ layout)},
                       1.18+ layout also: "isLightOn", "heightmaps": {"KIND": [longs as strings]},
                       "block_entities": {"count", "sha256" of the list in (y, z, x) order}}}
  stdlib_region.py records -             stdin: ["path/r.X.Z.mca", ...]
    stdout: {"path": {"size": bytes, "entries": {"index": [start, count]},
                      "damaged": {"index": "why"}, "payload": {"index": "sha256 of length + type + data"}}}
  stdlib_region.py both REGION_DIR      stdin: {"files": [...], "chunks": [[cx, cz, [Y, ...]], ...]}
    stdout: {"records": (as records), "chunks": (as chunks)}: one process for both
    Damage is judged by the format's own rules (what the game's reader would fail on): an entry
    inside the header, with no sectors, starting at or past the end of the file, sharing a sector
    with another entry; a chunk whose length, compression byte or data the file cannot serve.

States are printed as the file holds them: "namespace:id[key=value,...]" with keys sorted, and
for numeric chunks (1.12 and older) "numeric:ID:META". Nothing is upgraded or completed.
"""
import hashlib
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


def decode(root, only=None):
    dv = root.get("DataVersion")
    out = {"DataVersion": dv, "sections": {}, "digests": {}}
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
    out["isLightOn"] = root.get("isLightOn")
    out["heightmaps"] = {k: [str(v) for v in arr] for k, arr in sorted((root.get("Heightmaps") or {}).items())}
    entities = sorted(root.get("block_entities") or [], key=lambda e: (e.get("y"), e.get("z"), e.get("x")))
    out["block_entities"] = {
        "count": len(entities),
        "sha256": hashlib.sha256(json.dumps(entities, sort_keys=True, default=lambda b: b.hex()).encode()).hexdigest(),
    }
    for s in root.get("sections") or []:
        bs = s.get("block_states")
        if bs is None:
            continue
        palette = [state_of(e) for e in bs["palette"]]
        raw = json.dumps([palette, list(bs.get("data") or [])])
        out["digests"][str(s["Y"])] = hashlib.sha256(raw.encode()).hexdigest()
        if only is not None and s["Y"] not in only:
            continue
        if len(palette) == 1:
            idx = [0] * 4096
        else:
            bits = max(4, math.ceil(math.log2(len(palette))))
            idx = unpack(bs["data"], bits, 4096, False)
        out["sections"][str(s["Y"])] = {"palette": palette, "indices": idx}
    return out


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    out = {"size": len(data), "entries": {}, "damaged": {}, "payload": {}}
    if len(data) == 0:
        return out
    if len(data) < 8192:
        out["damaged"]["header"] = "shorter than the header"
        return out
    owner = {}
    for i in range(1024):
        entry = struct.unpack(">I", data[i * 4:i * 4 + 4])[0]
        if entry == 0:
            continue
        start, count = entry >> 8, entry & 255
        out["entries"][str(i)] = [start, count]
        if start < 2:
            out["damaged"][str(i)] = "inside the header"
        elif count == 0:
            out["damaged"][str(i)] = "no sectors"
        elif start * 4096 >= len(data):
            out["damaged"][str(i)] = "starts past the end"
        for sec in range(start, start + count):
            if sec in owner:
                out["damaged"][str(i)] = "shares a sector"
                out["damaged"][str(owner[sec])] = "shares a sector"
            else:
                owner[sec] = i
    for key, (start, count) in out["entries"].items():
        if key in out["damaged"]:
            continue
        at = start * 4096
        head = data[at:at + 5]
        if len(head) < 5:
            out["damaged"][key] = "no length"
            continue
        length = struct.unpack(">I", head[:4])[0]
        kind = head[4]
        if length == 0:
            out["damaged"][key] = "length 0"
        elif (kind & 0x7F) not in (1, 2, 3, 4):
            out["damaged"][key] = "unknown compression"
        elif kind & 0x80:
            i = int(key)
            rx, rz = [int(v) for v in os.path.basename(path).split(".")[1:3]]
            mcc = os.path.join(os.path.dirname(path), "c.%d.%d.mcc" % (rx * 32 + (i & 31), rz * 32 + (i >> 5)))
            if not os.path.exists(mcc):
                out["damaged"][key] = "external data missing"
        elif 4 + length > count * 4096:
            out["damaged"][key] = "longer than its sectors"
        elif at + 4 + length > len(data):
            out["damaged"][key] = "cut short"
        if key not in out["damaged"]:
            out["payload"][key] = hashlib.sha256(data[at:at + 4 + length]).hexdigest()
    return out


def chunks(region_dir, items):
    result = {}
    for item in items:
        cx, cz = item[0], item[1]
        only = set(item[2]) if len(item) > 2 else None
        path = os.path.join(region_dir, "r.%d.%d.mca" % (cx >> 5, cz >> 5))
        root = read_chunk(path, cx, cz)
        result["%d,%d" % (cx, cz)] = None if root is None else decode(root, only)
    return result


def main():
    mode, region_dir = sys.argv[1], sys.argv[2]
    if mode == "records":
        json.dump({p: records(p) for p in json.load(sys.stdin)}, sys.stdout)
    elif mode == "chunks":
        json.dump(chunks(region_dir, json.load(sys.stdin)), sys.stdout)
    elif mode == "both":
        ask = json.load(sys.stdin)
        json.dump({"records": {p: records(p) for p in ask["files"]}, "chunks": chunks(region_dir, ask["chunks"])}, sys.stdout)
    else:
        raise SystemExit("unknown mode " + mode)

main()
