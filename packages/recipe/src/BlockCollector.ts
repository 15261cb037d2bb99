import type { Box3 } from "./shapes/Shape.js";
import { boxVolume } from "./shapes/Shape.js";
import { pick, type Material } from "./Material.js";

/** Largest bounding volume collected in a dense grid (4 bytes per cell). */
export const DENSE_CELL_LIMIT = 4_194_304;

/** Raw runs in collection order (y, z, x); `value` = (filter << 16) | (state + 1). */
export interface RawRuns {
  readonly y: Int32Array;
  readonly z: Int32Array;
  readonly x: Int32Array;
  readonly length: Int32Array;
  readonly value: Uint32Array;
  /** Total positions. */
  readonly count: number;
}

/**
 * Collects encoded values by world position; a later put at the same position wins. Dense grids
 * serve recipes whose bounds are small; otherwise an append log is sorted (stable by emission index).
 */
export interface BlockCollector {
  put(x: number, y: number, z: number, value: number): void;
  /** Writes `value` to every position of an inclusive box (constant-state fast path). */
  fillBox(box: Box3, value: number): void;
  /** Writes `shift + pick(material, x, y, z)` to every position of an inclusive box. */
  fillBoxPalette(box: Box3, material: Material, shift: number): void;
  toRuns(): RawRuns;
}

/**
 * Reusable dense-grid memory. Fresh multi-megabyte typed arrays cost page faults on every compile;
 * a scratch owned by one compiler is reused instead (only its occupancy bitset is cleared) (it grows to the largest grid seen,
 * at most 16 MiB + 512 KiB). Compilation is synchronous, so one scratch is never shared by two runs.
 */
export class DenseScratch {
  private grid = new Uint32Array(0);
  private occupied = new Uint32Array(0);

  take(cells: number): { grid: Uint32Array; occupied: Uint32Array } {
    const words = (cells + 31) >>> 5;
    // Grid cells are read only where the occupancy bitset is set, and every set bit was written in
    // this run, so stale grid contents are never observed: only the bitset needs zeroing.
    if (this.grid.length < cells) this.grid = new Uint32Array(cells);
    if (this.occupied.length < words) this.occupied = new Uint32Array(words);
    else this.occupied.fill(0, 0, words);
    return { grid: this.grid.subarray(0, cells), occupied: this.occupied.subarray(0, words) };
  }
}

export function createCollector(bounds: Box3, emitted: number, scratch: DenseScratch = new DenseScratch()): BlockCollector {
  return boxVolume(bounds) <= DENSE_CELL_LIMIT ? denseCollector(bounds, scratch) : sparseCollector(emitted);
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

  private grow(): void {
    const size = this.y.length * 2;
    const widen = <T extends Int32Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.y = widen(this.y, (n) => new Int32Array(n));
    this.z = widen(this.z, (n) => new Int32Array(n));
    this.x = widen(this.x, (n) => new Int32Array(n));
    this.length = widen(this.length, (n) => new Int32Array(n));
    this.value = widen(this.value, (n) => new Uint32Array(n));
  }

  /** Adds one position, extending the last run when it continues it. */
  push(x: number, y: number, z: number, value: number): void {
    const last = this.runs - 1;
    if (last >= 0 && this.y[last] === y && this.z[last] === z && this.value[last] === value && this.x[last]! + this.length[last]! === x) {
      this.length[last]!++;
      this.count++;
    } else {
      this.pushRun(x, y, z, 1, value);
    }
  }

  /** Adds a whole run (the dense scan sees maximal runs already). */
  pushRun(x: number, y: number, z: number, length: number, value: number): void {
    if (this.runs === this.y.length) this.grow();
    const r = this.runs++;
    this.y[r] = y;
    this.z[r] = z;
    this.x[r] = x;
    this.length[r] = length;
    this.value[r] = value;
    this.count += length;
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

/**
 * Dense grid over the recipe bounds plus an occupancy bitset, so the final scan touches one word
 * per 32 cells and only the occupied cells themselves (hollow builds leave most cells empty).
 */
function denseCollector(bounds: Box3, scratch: DenseScratch): BlockCollector {
  const sx = bounds.maxX - bounds.minX + 1;
  const sz = bounds.maxZ - bounds.minZ + 1;
  const sy = bounds.maxY - bounds.minY + 1;
  const { grid, occupied } = scratch.take(sx * sy * sz);
  const { minX, minY, minZ } = bounds;
  const mark = (from: number, to: number): void => {
    // Sets bits [from, to).
    let i = from;
    while (i < to && (i & 31) !== 0) occupied[i >>> 5]! |= 1 << (i & 31), i++;
    while (i + 32 <= to) occupied[i >>> 5] = 0xffffffff, i += 32;
    while (i < to) occupied[i >>> 5]! |= 1 << (i & 31), i++;
  };
  return {
    put(x, y, z, value) {
      const i = ((y - minY) * sz + (z - minZ)) * sx + (x - minX);
      grid[i] = value;
      occupied[i >>> 5]! |= 1 << (i & 31);
    },
    fillBox(box, value) {
      const rowStart = box.minX - minX;
      const rowEnd = box.maxX - minX + 1;
      for (let y = box.minY; y <= box.maxY; y++) {
        for (let z = box.minZ; z <= box.maxZ; z++) {
          const row = ((y - minY) * sz + (z - minZ)) * sx;
          // TypedArray#fill has a fixed call cost that dominates short rows (walls, columns).
          if (rowEnd - rowStart >= 64) grid.fill(value, row + rowStart, row + rowEnd);
          else for (let i = row + rowStart; i < row + rowEnd; i++) grid[i] = value;
          mark(row + rowStart, row + rowEnd);
        }
      }
    },
    fillBoxPalette(box, material, shift) {
      for (let y = box.minY; y <= box.maxY; y++) {
        for (let z = box.minZ; z <= box.maxZ; z++) {
          const row = ((y - minY) * sz + (z - minZ)) * sx - minX;
          for (let x = box.minX; x <= box.maxX; x++) grid[row + x] = shift + pick(material, x, y, z);
          mark(row + box.minX, row + box.maxX + 1);
        }
      }
    },
    toRuns() {
      const out = new RunWriter();
      let start = -1;
      let prev = -2;
      let value = 0;
      let rowLimit = 0;
      const flush = (): void => {
        if (start < 0) return;
        const row = Math.floor(start / sx);
        const y = Math.floor(row / sz);
        out.pushRun(start - row * sx + minX, y + minY, row - y * sz + minZ, prev - start + 1, value);
      };
      // Starts a run at occupied cell i (callers extend runs while cells are adjacent, equal and in one row).
      const step = (i: number): void => {
        flush();
        start = prev = i;
        value = grid[i]!;
        rowLimit = (Math.floor(i / sx) + 1) * sx;
      };
      for (let w = 0; w < occupied.length; w++) {
        let word = occupied[w]!;
        if (word === 0) continue;
        const base = w << 5;
        if (word === 0xffffffff) {
          const wordEnd = base + 32;
          let i = base;
          while (i < wordEnd) {
            if (i !== prev + 1 || i >= rowLimit || grid[i] !== value) step(i++);
            // Hot path: extend the current run across equal cells up to the word or row end.
            const end = rowLimit < wordEnd ? rowLimit : wordEnd;
            while (i < end && grid[i] === value) i++;
            prev = i - 1;
          }
          continue;
        }
        while (word !== 0) {
          const i = base + 31 - Math.clz32(word & -word);
          word &= word - 1;
          if (i === prev + 1 && i < rowLimit && grid[i] === value) prev = i;
          else step(i);
        }
      }
      flush();
      return out.finish();
    },
  };
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
    fillBox(box, value) {
      for (let y = box.minY; y <= box.maxY; y++)
        for (let z = box.minZ; z <= box.maxZ; z++) for (let x = box.minX; x <= box.maxX; x++) put(x, y, z, value);
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
