import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TAG, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { DataPackUnreadable, dataPackFile } from "../src/DataPackFile.js";
import { worldHeightOf } from "../src/SaveHeight.js";
import { tempDir } from "./support.js";

/** A zip written by Python's zipfile (an independent writer), deflated or stored. */
function pyZip(path: string, files: Record<string, string>, deflated: boolean): void {
  execFileSync("python3", [
    "-S",
    "-c",
    "import json, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED if sys.argv[3] == '1' else zipfile.ZIP_STORED) as z:\n  for k, v in json.loads(sys.argv[2]).items(): z.writestr(k, v)",
    path,
    JSON.stringify(files),
    deflated ? "1" : "0",
  ]);
}

const TYPE = "data/minecraft/dimension_type/overworld.json";

function levelDat(extra: [string, NbtValue][]): NbtCompound {
  return nbt.compound([["LevelName", nbt.string("w")], ...extra]);
}

const packs = (...names: string[]): [string, NbtValue] => [
  "DataPacks",
  nbt.compound([
    [
      "Enabled",
      nbt.list(
        TAG.String,
        names.map((n) => nbt.string(n)),
      ),
    ],
    ["Disabled", nbt.list(TAG.String, [])],
  ]),
];

describe("a world's height: its dimension type", () => {
  it("reads a dimension type from zips (deflated and stored, written by Python's zipfile) and folders; a file the pack lacks is null; a broken zip is named", () => {
    const dir = tempDir();
    pyZip(join(dir, "d.zip"), { "pack.mcmeta": "{}", [TYPE]: '{"min_y": -64, "height": 384}' }, true);
    pyZip(join(dir, "s.zip"), { [TYPE]: '{"min_y": 0, "height": 512}' }, false);
    mkdirSync(join(dir, "f", "data", "minecraft", "dimension_type"), { recursive: true });
    writeFileSync(join(dir, "f", TYPE), '{"min_y": 16}');
    expect(dataPackFile(join(dir, "d.zip"), TYPE)!.toString()).toBe('{"min_y": -64, "height": 384}');
    expect(dataPackFile(join(dir, "s.zip"), TYPE)!.toString()).toBe('{"min_y": 0, "height": 512}');
    expect(dataPackFile(join(dir, "f"), TYPE)!.toString()).toBe('{"min_y": 16}');
    expect(dataPackFile(join(dir, "d.zip"), "data/x/none.json")).toBeNull();
    expect(dataPackFile(join(dir, "f"), "../../etc/passwd")).toBeNull();
    expect(dataPackFile(join(dir, "missing.zip"), TYPE)).toBeNull();
    writeFileSync(join(dir, "bad.zip"), "not a zip at all");
    expect(() => dataPackFile(join(dir, "bad.zip"), TYPE)).toThrow(DataPackUnreadable);
  });

  it("the version's default, an inline type in level.dat, the last enabled pack that defines it; a pack that cannot be read refuses the save", () => {
    const dir = tempDir();
    expect(worldHeightOf(dir, levelDat([]), 2730)).toEqual({ minY: 0, maxY: 255, source: "the game's default before 1.18" });
    expect(worldHeightOf(dir, levelDat([]), 4903)).toMatchObject({ minY: -64, maxY: 319 });
    const inline = nbt.compound([
      [
        "dimensions",
        nbt.compound([
          [
            "minecraft:overworld",
            nbt.compound([
              [
                "type",
                nbt.compound([
                  ["min_y", nbt.int(-32)],
                  ["height", nbt.int(320)],
                ]),
              ],
            ]),
          ],
        ]),
      ],
    ]);
    expect(worldHeightOf(dir, levelDat([["WorldGenSettings", inline]]), 2730)).toEqual({ minY: -32, maxY: 287, source: "level.dat" });
    mkdirSync(join(dir, "datapacks"));
    pyZip(join(dir, "datapacks", "low.zip"), { [TYPE]: '{"min_y": -64, "height": 384}' }, true);
    pyZip(join(dir, "datapacks", "high.zip"), { [TYPE]: '{"min_y": -128, "height": 512}' }, true);
    pyZip(join(dir, "datapacks", "other.zip"), { "data/x/y.json": "{}" }, true);
    expect(worldHeightOf(dir, levelDat([packs("vanilla", "file/low.zip", "file/high.zip", "file/other.zip")]), 2730)).toEqual({
      minY: -128,
      maxY: 383,
      source: "data pack file/high.zip",
    });
    expect(worldHeightOf(dir, levelDat([packs("file/high.zip", "file/low.zip")]), 2730)).toMatchObject({ minY: -64, maxY: 319 });
    expect(worldHeightOf(dir, levelDat([packs("file/../low.zip")]), 2730)).toMatchObject({ minY: 0, maxY: 255 }); // not a file name: ignored
    pyZip(join(dir, "datapacks", "odd.zip"), { [TYPE]: '{"min_y": -60, "height": 384}' }, true);
    expect(() => worldHeightOf(dir, levelDat([packs("file/odd.zip")]), 2730)).toThrow(
      expect.objectContaining({ code: "bad_data_pack", message: expect.stringMatching(/min_y -60 and height 384, outside what the game accepts/) }),
    );
    writeFileSync(join(dir, "datapacks", "broken.zip"), gzipSync("x"));
    expect(() => worldHeightOf(dir, levelDat([packs("file/broken.zip")]), 2730)).toThrow(
      expect.objectContaining({ code: "bad_data_pack", message: expect.stringMatching(/the data pack broken\.zip is unreadable \(not a zip file/) }),
    );
  });
});
