import { pick } from "./Material.js";
import { CollectorScratch, doubled, ROW_LIMIT, rowCollector } from "./RowCollector.js";
import type { Box3 } from "@mcb/blocks";
import type { BlockCollector, RawRuns } from "./Collector.js";

export function createCollector(bounds: Box3, emitted: number, scratch: CollectorScratch = new CollectorScratch()): BlockCollector {
  return (bounds.maxY - bounds.minY + 1) * (bounds.maxZ - bounds.minZ + 1) <= ROW_LIMIT ? rowCollector(bounds, scratch) : sparseCollector(emitted);
}

/** Appends runs into typed arrays that grow by doubling. */
class RunWriter {
  private y = new Int32Array(64);
  private z = new Int32Array(64);
  private x = new Int32Array(64);
  private length = new Int32Array(64);
  private value = new Uint32Array(64);
  private runs = 0;
  private count = 0;

  /** Adds one position, extending the last run when it continues it. */
  push(x: number, y: number, z: number, value: number): void {
    const last = this.runs - 1;
    this.count++;
    if (last >= 0 && this.y[last] === y && this.z[last] === z && this.value[last] === value && this.x[last]! + this.length[last]! === x) {
      this.length[last]!++;
      return;
    }
    if (this.runs === this.y.length) {
      ((this.y = doubled(this.y)),
        (this.z = doubled(this.z)),
        (this.x = doubled(this.x)),
        (this.length = doubled(this.length)),
        (this.value = doubled(this.value)));
    }
    const r = this.runs++;
    ((this.y[r] = y), (this.z[r] = z), (this.x[r] = x), (this.length[r] = 1), (this.value[r] = value));
  }

  finish(): RawRuns {
    const n = this.runs;
    return {
      y: this.y.slice(0, n),
      z: this.z.slice(0, n),
      x: this.x.slice(0, n),
      length: this.length.slice(0, n),
      value: this.value.slice(0, n),
      count: this.count,
    };
  }
}

function sparseCollector(capacity: number): BlockCollector {
  const xs = new Int32Array(capacity);
  const ys = new Int32Array(capacity);
  const zs = new Int32Array(capacity);
  const vs = new Uint32Array(capacity);
  let n = 0;
  const put = (x: number, y: number, z: number, value: number): void => {
    xs[n] = x;
    ys[n] = y;
    zs[n] = z;
    vs[n] = value;
    n++;
  };
  return {
    put,
    putSpan(x0, x1, y, z, value) {
      for (let x = x0; x <= x1; x++) put(x, y, z, value);
    },
    putSpanPalette(x0, x1, y, z, material, shift) {
      for (let x = x0; x <= x1; x++) put(x, y, z, shift + pick(material, x, y, z));
    },
    fillBox(box, value) {
      for (let y = box.minY; y <= box.maxY; y++) for (let z = box.minZ; z <= box.maxZ; z++) for (let x = box.minX; x <= box.maxX; x++) put(x, y, z, value);
    },
    fillBoxPalette(box, material, shift) {
      for (let y = box.minY; y <= box.maxY; y++)
        for (let z = box.minZ; z <= box.maxZ; z++) for (let x = box.minX; x <= box.maxX; x++) put(x, y, z, shift + pick(material, x, y, z));
    },
    toRuns() {
      const order = new Uint32Array(n);
      for (let i = 0; i < n; i++) order[i] = i;
      order.sort((a, b) => ys[a]! - ys[b]! || zs[a]! - zs[b]! || xs[a]! - xs[b]! || a - b);
      const out = new RunWriter();
      for (let k = 0; k < n; k++) {
        const i = order[k]!;
        const next = k + 1 < n ? order[k + 1]! : -1;
        // Keep only the last emission at each position.
        if (next >= 0 && xs[next] === xs[i] && ys[next] === ys[i] && zs[next] === zs[i]) continue;
        out.push(xs[i]!, ys[i]!, zs[i]!, vs[i]!);
      }
      return out.finish();
    },
  };
}
