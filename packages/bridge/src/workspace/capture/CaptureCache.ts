import type { Capture } from "@mcb/render";
import type { EncodedImage } from "./ImageFormat.js";

export interface StoredCapture {
  readonly captureId: string;
  readonly capture: Capture;
  /** As it was delivered (format and quality asked for). */
  readonly image: EncodedImage;
  readonly meta: Record<string, unknown>;
}

/** The most recent captures, readable again by capture_id (8, in memory). */
export class CaptureCache {
  private readonly entries = new Map<string, StoredCapture>();
  constructor(readonly capacity = 8) {}

  put(c: StoredCapture): void {
    this.entries.set(c.captureId, c);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  get(id: string): StoredCapture | undefined {
    return this.entries.get(id);
  }
}
