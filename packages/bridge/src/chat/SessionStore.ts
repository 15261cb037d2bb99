import { join } from "node:path";
import { readJson, writeJsonAtomic } from "../workspace/world/JsonFile.js";

/** What the bridge remembers of a project's conversation (docs/CHAT.md). */
export interface SessionRecord {
  /** The ACP session id, or null before the first turn. */
  readonly sessionId: string | null;
  /** Fingerprint of the building guidance the session received (resent when it changes). */
  readonly guidance: string | null;
  /** The latest request and its outcome: what a new session is told when the old one is lost. */
  readonly summary: { readonly request: string; readonly outcome: string; readonly at: string } | null;
  /** A turn that had not finished when the bridge stopped (its operations must be checked). */
  readonly unfinished: { readonly request: string; readonly startedAt: string } | null;
}

const EMPTY: SessionRecord = { sessionId: null, guidance: null, summary: null, unfinished: null };

/** `chat/sessions/<project>.json`, one per project, replaced atomically with mode 0600. */
export class SessionStore {
  constructor(private readonly stateDir: string) {}

  private file(projectId: string): string {
    return join(this.stateDir, "chat", "sessions", `${projectId}.json`);
  }

  load(projectId: string): SessionRecord {
    try {
      const raw = readJson(this.file(projectId)) as Partial<SessionRecord> | null;
      if (raw === null || typeof raw !== "object") return EMPTY;
      return {
        sessionId: typeof raw.sessionId === "string" ? raw.sessionId : null,
        guidance: typeof raw.guidance === "string" ? raw.guidance : null,
        summary: raw.summary && typeof raw.summary.request === "string" && typeof raw.summary.outcome === "string" ? raw.summary : null,
        unfinished: raw.unfinished && typeof raw.unfinished.request === "string" ? raw.unfinished : null,
      };
    } catch (e) {
      process.stderr.write(`mcb chat: session file of ${projectId} unreadable (${(e as Error).message}); starting a new conversation\n`);
      return EMPTY;
    }
  }

  save(projectId: string, record: SessionRecord): void {
    writeJsonAtomic(this.file(projectId), record);
  }
}
