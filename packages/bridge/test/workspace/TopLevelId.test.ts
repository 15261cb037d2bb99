import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TopLevelId } from "../../src/workspace/agent/TopLevelId.js";

function scan(text: string, cuts: readonly number[]): string | number | null {
  const bytes = Buffer.from(text, "utf8");
  const s = new TopLevelId();
  let at = 0;
  for (const c of [...cuts].map((x) => x % (bytes.length + 1)).sort((a, b) => a - b)) {
    s.feed(bytes.subarray(at, c));
    at = c;
  }
  s.feed(bytes.subarray(at));
  return s.result();
}

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constantFrom('i"d', "}", ",", "\\", '{"id":1}'));
/** JSON values that may hide "id" keys, braces and quotes inside strings and nested objects. */
const noise = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constant("id"), fc.string({ maxLength: 4 })), tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("TopLevelId (the id of a message too large to parse)", () => {
  it("finds exactly the top-level id, whatever the key order, nesting, strings and chunk boundaries", () => {
    fc.assert(
      fc.property(id, noise, noise, fc.boolean(), fc.array(fc.nat(), { maxLength: 8 }), (want, before, after, idFirst, cuts) => {
        const fields: [string, unknown][] = [
          ["jsonrpc", "2.0"],
          ["method", "tools/call"],
          ["params", { arguments: { id: before, x: after } }],
        ];
        fields.splice(idFirst ? 0 : fields.length, 0, ["id", want]);
        const text = `{${fields.map(([k, v]) => `${JSON.stringify(k)} : ${JSON.stringify(v)}`).join(" ,\n")}}`;
        expect(JSON.parse(text).id).toEqual(want);
        expect(scan(text, cuts)).toEqual(want);
      }),
      { numRuns: 500 },
    );
  });

  it("gives null for no id, a nested-only id, an object id, an array message, or an id too long", () => {
    expect(scan('{"jsonrpc":"2.0","method":"x"}', [])).toBeNull();
    expect(scan('{"params":{"id":5},"method":"x"}', [3])).toBeNull();
    expect(scan('{"id":{"a":1},"method":"x"}', [])).toBeNull();
    expect(scan('[{"id":1}]', [])).toBeNull();
    expect(scan(`{"id":"${"x".repeat(300)}"}`, [])).toBeNull();
    expect(scan('{"id": 12', [])).toBe(12); // truncated input still gives the id it saw
  });
});
