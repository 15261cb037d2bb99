import type { JobProgress } from "../workspace/jobs/JobProgress.js";

/** How often the chat tells a player how a long job goes, by default. */
export const PROGRESS_EVERY_MS = 5_000;

const n = (x: number): string => x.toLocaleString("en-US");
const VERB = { paste: "Pasting", terrain: "Terrain", build: "Building" } as const;
const NOUN = { paste: "Paste", terrain: "Terrain", build: "Build" } as const;

/**
 * The chat's progress lines for a project's background jobs (an agent's one-call paste, terrain
 * job, big build or batch undo): a line when a job first reports, then at most one every `everyMs` while it
 * runs (a job of a few seconds gets one or two), and always one at its end. The agent keeps its
 * turn; the player sees the job move.
 */
export class ProgressLines {
  private readonly jobs = new Map<string, { startedAt: number; saidAt: number }>();

  constructor(
    private readonly say: (text: string) => void,
    private readonly everyMs: number = PROGRESS_EVERY_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  report(p: JobProgress): void {
    const key = `${p.kind}:${p.id}`;
    const t = this.now();
    let job = this.jobs.get(key);
    if (job === undefined) {
      job = { startedAt: t, saidAt: -Infinity };
      this.jobs.set(key, job);
    }
    if (p.state !== "running") {
      this.jobs.delete(key);
      this.say(endLine(p, t - job.startedAt));
      return;
    }
    if (t - job.saidAt < this.everyMs) return;
    job.saidAt = t;
    const secs = (t - job.startedAt) / 1000;
    const rate = secs >= 0.5 && p.blocks > 0 ? `, ${n(Math.round(p.blocks / secs))} blocks/s` : "";
    this.say(
      p.kind === "undo"
        ? `Undoing ${p.id}: ${p.done} of ${p.total} operations, ${n(p.blocks)} blocks restored${rate}.`
        : `${VERB[p.kind]} ${p.id}: ${p.done} of ${p.total} tiles, ${n(p.blocks)} blocks written${rate}.`,
    );
  }
}

function endLine(p: JobProgress, ms: number): string {
  const what = p.kind === "undo" ? `Undo of ${p.id}` : `${NOUN[p.kind]} ${p.id}`;
  const blocks = `${n(p.blocks)} blocks ${p.kind === "undo" ? "restored" : "written"}`;
  const took = `${(ms / 1000).toFixed(1)} s`;
  if (p.state === "done") return `${what} done: ${blocks} in ${took}.`;
  if (p.state === "stopped")
    return `${what} stopped after ${p.done} of ${p.total} ${p.kind === "undo" ? "operations" : "tiles"} (${blocks}); asking again goes on.`;
  return `${what} failed after ${blocks}; /ai status shows what stands.`;
}
