import type { BlockRegistry } from "@mcb/blocks";
import type { Journal } from "./Journal.js";
import type { EngineLimits, ProjectConfig } from "./Project.js";
import type { WorldAdapter } from "./WorldAdapter.js";

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
  /** Waits between attempts to reach a world's server that went away (default 250 ms doubling to 5 s). */
  readonly reconnectDelaysMs?: readonly number[];
}
