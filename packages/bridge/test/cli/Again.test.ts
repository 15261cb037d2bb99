import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { sameWorldCommand } from "../../src/cli/Again.js";

describe("the command to run next on the same world (Ctrl-C's undo hint)", () => {
  it("names the state directory, the world, the journal, the version and the area; a shell reads it back word for word", () => {
    const cmd = sameWorldCommand(["undo", "op_1"], {
      dir: "/tmp/my state",
      target: { savePath: "/home/a/.minecraft/saves/Bob's World", area: { minX: -5, minZ: 0, maxX: 9, maxZ: 9 }, minecraftVersion: "26.1" },
    });
    expect(cmd).toBe(`mcb undo op_1 --state '/tmp/my state' --world 'save:/home/a/.minecraft/saves/Bob'\\''s World' --mc-version 26.1 --area -5,0,9,9`);
    const words = execFileSync("bash", ["-c", `printf '%s\\n' ${cmd}`], { encoding: "utf8" })
      .trimEnd()
      .split("\n");
    expect(words).toEqual([
      "mcb",
      "undo",
      "op_1",
      "--state",
      "/tmp/my state",
      "--world",
      "save:/home/a/.minecraft/saves/Bob's World",
      "--mc-version",
      "26.1",
      "--area",
      "-5,0,9,9",
    ]);
    expect(
      sameWorldCommand(["undo", "op_2"], { dir: ".state", target: { portUrl: "port://127.0.0.1:25580", journal: "postgres://mcb@127.0.0.1:5432/mcb" } }),
    ).toBe("mcb undo op_2 --world port://127.0.0.1:25580 --journal postgres://mcb@127.0.0.1:5432/mcb");
  });
});
