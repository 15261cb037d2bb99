/** Longest chat message we send (docs/DESIGN.md "Chat"). */
export const MAX_CHAT_MESSAGE = 240;

/** Formatting codes (§) and control characters other than newline never reach the game. */
export function cleanChatText(text: string): string {
  // `u`: the character after § is a whole code point (an emoji's pair goes with it, never half).
  return text.replace(/§./gsu, "").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, " ");
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Splits text into chat messages of at most `max` UTF-16 units: at the last space inside the limit
 * when there is one, else (one longer word) at the limit, moved back one unit rather than splitting
 * a surrogate pair. Runs of whitespace become one space; empty pieces are dropped.
 */
export function splitForChat(text: string, max = MAX_CHAT_MESSAGE): string[] {
  if (!Number.isInteger(max) || max < 2) throw new RangeError("max must be an integer ≥ 2");
  let rest = cleanChatText(text).replace(/\s+/g, " ").trim();
  const out: string[] = [];
  while (rest.length > max) {
    let cut = rest.lastIndexOf(" ", max);
    if (cut <= 0) {
      cut = max;
      if (isHighSurrogate(rest.charCodeAt(cut - 1))) cut--;
    }
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest.length > 0) out.push(rest);
  return out;
}

const SENTENCE_END = /[.!?…:](?=\s)|\n/g;

/**
 * Collects streamed text into complete sentences or lines (docs/CHAT.md): `push` returns the
 * messages that became complete, `flush` the rest at the end of the turn. A passage with no
 * sentence end that outgrows a message is released at word boundaries, keeping its unfinished tail.
 */
export class SentenceAssembler {
  private pending = "";

  constructor(private readonly max = MAX_CHAT_MESSAGE) {}

  push(chunk: string): string[] {
    this.pending += chunk;
    let end = -1;
    for (const m of this.pending.matchAll(SENTENCE_END)) end = m.index + m[0].length;
    const out: string[] = [];
    if (end > 0) {
      out.push(...splitForChat(this.pending.slice(0, end), this.max));
      this.pending = this.pending.slice(end);
    }
    if (this.pending.length > this.max * 2) {
      const pieces = splitForChat(this.pending, this.max);
      const tail = pieces.pop() ?? "";
      out.push(...pieces);
      this.pending = tail;
    }
    return out;
  }

  flush(): string[] {
    const out = splitForChat(this.pending, this.max);
    this.pending = "";
    return out;
  }
}
