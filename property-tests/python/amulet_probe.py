"""An independent reader and writer of Minecraft saves for mcb's interop tests: amulet-core.

  amulet_probe.py read SAVE   stdin: [[x, y, z], ...]         stdout: {"states": [...], "entities": {...}, "bounds": [min_y, max_y]}
                              (through amulet's translation: waterlogged moves to an extra block)
  amulet_probe.py raw SAVE    stdin: [[x, y, z], ...]         stdout: {"states": [...], "chunks": {...}}
                              (amulet's region reader, NBT and long-array decoder, no translation;
                              "chunks" gives each chunk's Status, DataVersion and isLightOn)
  amulet_probe.py write SAVE  stdin: [[x, y, z, state], ...]  sets the blocks through amulet, saves

States are printed as "namespace:id[key=value,...]" with keys sorted, in the save's own version.
"""
import json
import sys

import amulet
from amulet.api.block import Block


def state_of(block):
    props = {k: str(v).strip('"') for k, v in block.properties.items()}
    if not props:
        return block.namespaced_name
    return block.namespaced_name + "[" + ",".join(f"{k}={props[k]}" for k in sorted(props)) + "]"


def parse_state(text):
    name, _, rest = text.partition("[")
    namespace, _, base = name.partition(":")
    props = {}
    if rest:
        import amulet_nbt
        for pair in rest.rstrip("]").split(","):
            k, _, v = pair.partition("=")
            props[k] = amulet_nbt.StringTag(v)
    return Block(namespace, base, props)


def raw_states(level, items, dim):
    from amulet.utils.world_utils import decode_long_array
    import math
    wrapper = level.level_wrapper
    cache, out, chunks = {}, [], {}
    for x, y, z in items:
        cx, cz = x >> 4, z >> 4
        if (cx, cz) not in cache:
            tag = wrapper.get_raw_chunk_data(cx, cz, dim)
            root = tag.compound if hasattr(tag, "compound") else tag
            sections = {}
            for sec in root.get_list("sections"):
                bs = sec.get("block_states")
                if bs is None:
                    continue
                palette = []
                for entry in bs.get_list("palette"):
                    props = entry.get("Properties")
                    p = {k: str(v.py_str) for k, v in props.items()} if props is not None else {}
                    name = str(entry.get_string("Name").py_str)
                    palette.append(name + ("[" + ",".join(f"{k}={p[k]}" for k in sorted(p)) + "]" if p else ""))
                if len(palette) == 1:
                    indices = [0] * 4096
                else:
                    bits = max(4, math.ceil(math.log2(len(palette))))
                    indices = decode_long_array(bs.get_long_array("data").np_array, 4096, bits, dense=False)
                sections[int(sec.get_byte("Y").py_int)] = (palette, indices)
            cache[(cx, cz)] = sections
            chunks[f"{cx},{cz}"] = {
                "Status": str(root.get_string("Status").py_str),
                "DataVersion": int(root.get_int("DataVersion").py_int),
                "isLightOn": int(root["isLightOn"].py_int) if "isLightOn" in root else None,
                "Heightmaps": sorted(root["Heightmaps"].keys()) if "Heightmaps" in root else [],
            }
        palette, indices = cache[(cx, cz)].get(y >> 4, (["minecraft:air"], [0] * 4096))
        out.append(palette[int(indices[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)])])
    return out, chunks


def main():
    mode, path = sys.argv[1], sys.argv[2]
    items = json.load(sys.stdin)
    level = amulet.load_level(path)
    dim = "minecraft:overworld"
    version = ("java", level.level_wrapper.version)
    try:
        if mode == "read":
            states, entities = [], {}
            for i, (x, y, z) in enumerate(items):
                block, entity = level.get_version_block(x, y, z, dim, version)
                states.append(state_of(block))
                if entity is not None:
                    entities[str(i)] = {"id": entity.namespaced_name, "nbt": entity.nbt.to_snbt()}
            box = level.bounds(dim)
            bounds = [int(box.min_y), int(box.max_y) - 1]
            json.dump({"version": level.level_wrapper.version, "bounds": bounds, "states": states, "entities": entities}, sys.stdout)
        elif mode == "raw":
            states, chunks = raw_states(level, items, dim)
            json.dump({"states": states, "chunks": chunks}, sys.stdout)
        elif mode == "write":
            for x, y, z, state in items:
                level.set_version_block(x, y, z, dim, version, parse_state(state))
            level.save()
            json.dump({"written": len(items)}, sys.stdout)
        else:
            raise SystemExit(f"unknown mode {mode}")
    finally:
        level.close()


main()
