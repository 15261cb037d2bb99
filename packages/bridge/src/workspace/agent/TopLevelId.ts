const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COLON = 0x3a,
  COMMA = 0x2c;
const OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;
/** Bytes kept of the id value (ids are short; a longer one is not an id we answer to). */
const MAX_ID_BYTES = 256;

/**
 * Finds the top-level `"id"` of a JSON-RPC message too large to parse, in one streaming pass
 * over its bytes in constant memory, so that the refusal can answer the request it refuses
 * (SDK clients write the id last, after the params). Nested `id` keys are ignored. The result
 * is a string or number id, or null when there is none (or it is not a valid id).
 */
export class TopLevelId {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1, the next string is a key. */
  private expectKey = false;
  private key: number[] | null = null;
  private lastKeyIsId = false;
  private value: number[] | null = null;
  private found: string | number | null | undefined = undefined;

  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) this.step(bytes[i]!);
  }

  /** The id seen so far (call after the whole message was fed). */
  result(): string | number | null {
    if (this.found === undefined && this.value !== null) this.finishValue();
    return this.found ?? null;
  }

  private step(b: number): void {
    if (this.value !== null && this.depth >= 1) {
      const endsValue = !this.inString && this.depth === 1 && (b === COMMA || b === CLOSE_OBJECT);
      if (endsValue) this.finishValue();
      else if (this.value.length <= MAX_ID_BYTES) this.value.push(b);
    }
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key !== null) {
          this.lastKeyIsId = this.key.length === 2 && this.key[0] === 0x69 && this.key[1] === 0x64; // "id"
          this.key = null;
          this.expectKey = false;
        }
        return;
      }
      if (this.key !== null && this.key.length < 3) this.key.push(b);
      return;
    }
    switch (b) {
      case QUOTE:
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.key = [];
        break;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.depth++;
        if (this.depth === 1) this.expectKey = b === OPEN_OBJECT;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        this.depth--;
        break;
      case COLON:
        if (this.depth === 1 && this.lastKeyIsId && this.found === undefined) this.value = [];
        this.lastKeyIsId = false;
        break;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        break;
    }
  }

  private finishValue(): void {
    const raw = this.value!;
    this.value = null;
    if (raw.length > MAX_ID_BYTES) return;
    try {
      const v: unknown = JSON.parse(Buffer.from(raw).toString("utf8"));
      if ((typeof v === "string" && v.length <= 128) || (typeof v === "number" && Number.isFinite(v))) this.found = v;
    } catch {
      // not a JSON value: no id
    }
  }
}
