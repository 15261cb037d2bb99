import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_STATE_STRING_LENGTH, formatState, parseStateSyntax } from "../src/BlockStateSyntax.js";

const token = fc.stringMatching(/^[a-z0-9_]{1,12}$/);

describe("parseStateSyntax", () => {
  it("parses ids with and without namespace and properties in written order", () => {
    const a = parseStateSyntax("minecraft:oak_stairs[half=top,facing=east]");
    expect(a).toEqual({
      ok: true,
      value: {
        id: "minecraft:oak_stairs",
        properties: [
          ["half", "top"],
          ["facing", "east"],
        ],
      },
    });
    const b = parseStateSyntax("stone");
    expect(b).toEqual({ ok: true, value: { id: "minecraft:stone", properties: [] } });
    expect(parseStateSyntax("stone[]")).toEqual({ ok: true, value: { id: "minecraft:stone", properties: [] } });
  });

  it.each([
    ["", "malformed_state"],
    ["minecraft:", "malformed_state"],
    ["Minecraft:Stone", "malformed_state"],
    ["stone[", "malformed_state"],
    ["stone[facing]", "malformed_state"],
    ["stone[facing=]", "malformed_state"],
    ["stone[=north]", "malformed_state"],
    ["stone[a=b,]", "malformed_state"],
    ["stone[a=b]x", "malformed_state"],
    ["stone{CustomName:1}", "malformed_state"],
    ["stone[a = b]", "malformed_state"],
    ["chest[facing=north]{Items:[]}", "malformed_state"],
    ["stone[a=b,a=c]", "duplicate_property"],
  ])("rejects %j as %s", (input, reason) => {
    const r = parseStateSyntax(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("invalid_request");
      expect(r.error.details?.["reason"]).toBe(reason);
    }
  });

  it("rejects strings over the length limit and accepts the limit itself", () => {
    const name = "a".repeat(MAX_STATE_STRING_LENGTH - "minecraft:".length);
    expect(parseStateSyntax(`minecraft:${name}`).ok).toBe(true);
    const r = parseStateSyntax(`minecraft:${name}a`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.details).toMatchObject({ reason: "too_long", length: MAX_STATE_STRING_LENGTH + 1 });
  });

  it("names the bad part by index", () => {
    const r = parseStateSyntax("minecraft:stone[ok=1,Bad=2]");
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain('"Bad"');
      expect(r.error.details?.["index"]).toBe("minecraft:stone[ok=1,".length);
    }
  });

  it("format sorts keys and parse∘format is the identity on valid syntax (property)", () => {
    fc.assert(
      fc.property(token, fc.dictionary(token, token, { maxKeys: 6 }), (path, props) => {
        const text = formatState(`minecraft:${path}`, props);
        const parsed = parseStateSyntax(text);
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        expect(parsed.value.id).toBe(`minecraft:${path}`);
        expect(Object.fromEntries(parsed.value.properties)).toEqual(props);
        const keys = parsed.value.properties.map(([k]) => k);
        expect(keys).toEqual([...keys].sort());
        expect(formatState(parsed.value.id, Object.fromEntries(parsed.value.properties))).toBe(text);
      }),
    );
  });

  it("never throws on arbitrary strings (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1100 }), (s) => {
        const r = parseStateSyntax(s);
        if (r.ok) expect(s.length).toBeLessThanOrEqual(MAX_STATE_STRING_LENGTH);
      }),
    );
  });
});
