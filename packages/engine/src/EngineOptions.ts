import type { BlockRegistry } from "@mcb/blocks";
import type { Journal } from "./store/Journal.js";
import type { EngineLimits, ProjectConfig } from "./core/Project.js";
import type { WorldAdapter } from "./world/WorldAdapter.js";

/** What an engine is opened over: one world, one journal, the registry, the projects and the limits. */
export interface EngineOptions {
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly registry: BlockRegistry;
  readonly projects: readonly ProjectConfig[];
  readonly limits?: Partial<EngineLimits>;
  /** Epoch milliseconds; injectable for expiry tests. */
  readonly clock?: () => number;
  /** Id generator (prefix "plan", "op", "part"); default random. */
  readonly newId?: (prefix: string) => string;
  /**
   * Where the engine reports what no caller is waiting for (the queue stopped by a journal that
   * can no longer persist). The engine never writes to stdout or stderr itself; default: silent.
   */
  readonly log?: (line: string) => void;
  /**
   * The journal is shared with other live bridges on the same world (a PostgreSQL journal): the
   * engine claims its operations and leases regions (`BridgeClaims`), and settles only operations
   * whose bridge's claims expired. Absent: this engine is the journal's only process (a SQLite
   * file under the state lock) and voids earlier processes' claims when it opens.
   */
  readonly shared?: { readonly holder?: string; readonly claimTtlMs?: number };
  /** Waits between attempts to reach a world's server that went away (default 250 ms doubling to 5 s). */
  readonly reconnectDelaysMs?: readonly number[];
}
