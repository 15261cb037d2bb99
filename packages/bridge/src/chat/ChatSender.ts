import { setTimeout as sleep } from "node:timers/promises";
import { splitForChat } from "./ChatText.js";

/** At most this many messages per player in any one-second window (docs/DESIGN.md "Chat"). */
export const MESSAGES_PER_SECOND = 4;
/** Pending messages per player beyond which the oldest are dropped and counted. */
const MAX_PENDING = 64;

export type ChatSink = (playerId: string, text: string) => Promise<boolean>;

interface Outbox {
  readonly queue: string[];
  readonly sent: number[];
  dropped: number;
  running: Promise<void> | null;
}

/**
 * Delivers chat messages to each player in order, one at a time (a slow reply cannot let a later
 * message overtake it), each at most 240 characters and at most four per player in any second.
 * `idle(player)` resolves once everything queued for that player was handed to the sink.
 */
export class ChatSender {
  private readonly boxes = new Map<string, Outbox>();

  constructor(
    private readonly sink: ChatSink,
    private readonly now: () => number = () => performance.now(),
  ) {}

  send(playerId: string, text: string): void {
    const box = this.box(playerId);
    for (const piece of splitForChat(text)) box.queue.push(piece);
    while (box.queue.length > MAX_PENDING) {
      box.queue.shift();
      box.dropped++;
    }
    if (box.running === null)
      box.running = this.drain(playerId, box).finally(() => {
        box.running = null;
      });
  }

  async idle(playerId: string): Promise<void> {
    const box = this.boxes.get(playerId);
    while (box?.running) await box.running;
  }

  async idleAll(): Promise<void> {
    await Promise.all([...this.boxes.keys()].map((p) => this.idle(p)));
  }

  private box(playerId: string): Outbox {
    let b = this.boxes.get(playerId);
    if (b === undefined) this.boxes.set(playerId, (b = { queue: [], sent: [], dropped: 0, running: null }));
    return b;
  }

  private async drain(playerId: string, box: Outbox): Promise<void> {
    while (box.queue.length > 0) {
      if (box.sent.length >= MESSAGES_PER_SECOND) {
        const wait = box.sent[box.sent.length - MESSAGES_PER_SECOND]! + 1000 - this.now();
        if (wait > 0) await sleep(wait + 1);
      }
      if (box.dropped > 0) {
        box.queue.unshift(`(${box.dropped} earlier messages skipped)`);
        box.dropped = 0;
      }
      const text = box.queue.shift()!;
      box.sent.push(this.now());
      if (box.sent.length > MESSAGES_PER_SECOND) box.sent.shift();
      try {
        await this.sink(playerId, text);
      } catch (e) {
        process.stderr.write(`mcb chat: reply to ${playerId} failed: ${(e as Error).message}\n`);
      }
    }
  }
}
