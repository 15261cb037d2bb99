/**
 * Medians in milliseconds of a baseline and a candidate, measured interleaved (baseline, candidate,
 * baseline, …) after warm-up so that machine noise hits both alike.
 */
export function compare(baseline, candidate, { runs = 41, warmup = 10 } = {}) {
  for (let i = 0; i < warmup; i++) {
    baseline();
    candidate();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    let t = process.hrtime.bigint();
    baseline();
    a.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    candidate();
    b.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const mid = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { baselineMs: mid(a), candidateMs: mid(b) };
}

/** Prints one result row; returns false when a target ratio is set and missed. */
export function row(label, ms, baselineMs, target) {
  const ratio = ms / baselineMs;
  const verdict = target === undefined ? "  (reported)" : ratio <= target ? `  target ≤${target}× met` : `  target ≤${target}× MISSED`;
  console.log(
    `${label.padEnd(66)} ${ms.toFixed(3).padStart(8)} ms  baseline ${baselineMs.toFixed(3).padStart(7)} ms  ratio ${ratio.toFixed(2).padStart(6)}×${verdict}`,
  );
  return target === undefined || ratio <= target;
}

/** `compare` for async functions (interleaved medians in milliseconds). */
export async function compareAsync(baseline, candidate, { runs = 11, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) {
    await baseline();
    await candidate();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    let t = process.hrtime.bigint();
    await baseline();
    a.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await candidate();
    b.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const mid = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return { baselineMs: mid(a), candidateMs: mid(b) };
}
