import { describe, expect, it } from "vitest";
import { parseChatCommand } from "../../src/chat/ChatCommands.js";
import { decidePermission, permissionResponse } from "../../src/chat/PermissionPolicy.js";

describe("chat commands", () => {
  it("parses exact commands and leaves everything else to the agent", () => {
    expect(parseChatCommand("/ai build a watchtower here")).toEqual({ kind: "prompt", text: "build a watchtower here" });
    expect(parseChatCommand("status")).toEqual({ kind: "status" });
    expect(parseChatCommand("/ai STOP")).toEqual({ kind: "stop" });
    expect(parseChatCommand("stop the fire spreading")).toEqual({ kind: "prompt", text: "stop the fire spreading" });
    expect(parseChatCommand("undo op_12ab")).toEqual({ kind: "undo", operationId: "op_12ab" });
    expect(parseChatCommand("undo the last wall")).toMatchObject({ kind: "prompt" });
    expect(parseChatCommand("project create castle-2")).toEqual({ kind: "project_create", name: "castle-2" });
    expect(parseChatCommand("project use castle-2")).toEqual({ kind: "project_use", name: "castle-2" });
    expect(parseChatCommand("project delete x")).toMatchObject({ kind: "usage" });
    expect(parseChatCommand("project create ../etc")).toMatchObject({ kind: "usage" });
    expect(parseChatCommand("area set 10 64 -5 0 70 20")).toEqual({ kind: "area_set", box: { minX: 0, minY: 64, minZ: -5, maxX: 10, maxY: 70, maxZ: 20 } });
    expect(parseChatCommand("area set 1 2 3")).toMatchObject({ kind: "usage" });
    expect(parseChatCommand("area set 1 2 3 4 5 6.5")).toMatchObject({ kind: "usage" });
    expect(parseChatCommand("camera save gate_view")).toEqual({ kind: "camera_save", name: "gate_view" });
    expect(parseChatCommand("protect part_abc")).toEqual({ kind: "protect", partId: "part_abc", on: true });
    expect(parseChatCommand("unprotect part_abc")).toEqual({ kind: "protect", partId: "part_abc", on: false });
    expect(parseChatCommand("protect the garden")).toMatchObject({ kind: "prompt" });
    expect(parseChatCommand("   ")).toMatchObject({ kind: "usage" });
    expect(parseChatCommand("x".repeat(1025))).toMatchObject({ kind: "usage" });
  });
});

describe("permission policy", () => {
  const area = { minX: 0, minY: -64, minZ: 0, maxX: 63, maxY: 319, maxZ: 63 };
  const options = [
    { optionId: "always", name: "Always", kind: "allow_always" as const },
    { optionId: "once", name: "Once", kind: "allow_once" as const },
    { optionId: "no", name: "No", kind: "reject_once" as const },
  ];
  const req = (title: string, rawInput: unknown = {}) => ({ sessionId: "s", toolCall: { toolCallId: "t", title, rawInput }, options });

  it("allows our tools once inside the area, and refuses shells, other servers, outside coordinates and idle requests", () => {
    expect(
      permissionResponse(
        req("minecraft-builder build_prepare"),
        decidePermission(req("minecraft-builder build_prepare", { min: { x: 1, y: 2, z: 3 } }), { area }),
      ),
    ).toEqual({ outcome: { outcome: "selected", optionId: "once" } });
    expect(decidePermission(req("mcp: minecraft-builder/region_inspect"), { area })).toEqual({ allow: true });
    expect(decidePermission(req("shell: rm -rf /"), { area })).toMatchObject({ allow: false });
    expect(decidePermission(req("not-minecraft-builder-x build_prepare"), { area })).toMatchObject({ allow: false });
    expect(decidePermission(req("minecraft-builder build_prepare", { recipe: { operations: [{ to: { x: 64, y: 0, z: 0 } }] } }), { area })).toMatchObject({
      allow: false,
      why: expect.stringMatching(/outside/),
    });
    expect(decidePermission(req("minecraft-builder build_prepare"), { area: null })).toMatchObject({ allow: false });
    expect(permissionResponse(req("x"), { allow: false, why: "" })).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(permissionResponse({ ...req("x"), options: [options[0]!] }, { allow: false, why: "" })).toEqual({ outcome: { outcome: "cancelled" } });
    expect(permissionResponse({ ...req("x"), options: [options[0]!] }, { allow: true })).toEqual({ outcome: { outcome: "cancelled" } }); // never a persistent approval
  });
});
