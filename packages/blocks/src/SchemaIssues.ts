import { ECHO_LIMITS, clip } from "./EchoBounds.js";
import { mcbError, type McbError } from "./McbError.js";

/**
 * One schema failure as a validator reports it (zod's issues have this shape): a code, a path,
 * a message, and per code what was allowed, unknown or tried.
 */
export interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly expected?: string;
  readonly discriminator?: string;
  readonly options?: readonly unknown[];
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

type Issue = SchemaIssue;
type Primitive = string | number | boolean | null;

const isPrimitive = (v: unknown): v is Primitive => v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** One schema failure as the caller sees it: where, what, and (when the schema knows) what is allowed. */
export interface IssueView {
  readonly path: string;
  readonly message: string;
  readonly allowed?: readonly Primitive[];
}

const MAX_ISSUES = 8;

function pathOf(base: readonly PropertyKey[], rel: readonly PropertyKey[]): string {
  return [...base, ...rel].map((p) => clip(String(p), ECHO_LIMITS.keyChars)).join(".");
}

function quoteList(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map((v) => (typeof v === "string" ? JSON.stringify(clip(v, ECHO_LIMITS.keyChars)) : String(v)));
  return shown.join(", ") + (values.length > 12 ? `, … (${values.length - 12} more)` : "");
}

const article = (word: string): string => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;

/** What one union branch wanted, in a few words: "a string", "an object", "one of 0, 90". */
function branchShape(branch: readonly Issue[]): string {
  const root = branch.find((i) => i.path.length === 0 && i.code === "invalid_type");
  if (root !== undefined && root.expected !== undefined) return article(root.expected);
  const first = branch[0];
  if (first?.code === "invalid_value" && first.path.length === 0) return `one of ${quoteList(first.values ?? [])}`;
  return "an object";
}

function depth(branch: readonly Issue[]): number {
  return branch.reduce((m, i) => Math.max(m, i.path.length + (i.code === "invalid_type" && i.path.length === 0 ? -1 : 0)), -1);
}

function describeIssue(issue: Issue, base: readonly PropertyKey[]): IssueView {
  const path = pathOf(base, issue.path);
  switch (issue.code) {
    case "invalid_value": {
      const values = issue.values ?? [];
      return { path, message: `expected one of ${quoteList(values)}`, allowed: values.filter(isPrimitive) };
    }
    case "unrecognized_keys": {
      const keys = issue.keys ?? [];
      return { path, message: `unknown ${keys.length === 1 ? "key" : "keys"} ${quoteList(keys)}` };
    }
    case "invalid_union": {
      const options = issue.options;
      if (issue.discriminator !== undefined && options !== undefined) {
        const allowed = options.filter(isPrimitive);
        return { path, message: `${JSON.stringify(issue.discriminator)} must be one of ${quoteList(allowed)}`, allowed };
      }
      const branches = issue.errors ?? [];
      if (branches.length === 0) return { path, message: clip(issue.message) };
      // The branch that got furthest explains best what was meant; every branch names its shape.
      const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
      const shapes = branches.map(branchShape);
      const detail =
        depth(best) >= 0
          ? `; closest (${branchShape(best)}): ${best
              .slice(0, 3)
              .map((i) => `${pathOf(issue.path, i.path) || "(root)"} ${describeIssue(i, []).message}`)
              .join("; ")}`
          : "";
      return { path, message: clip(`expected ${shapes.join(" or ")}${detail}`, 400) };
    }
    case "invalid_type":
      return { path, message: /received undefined$/.test(issue.message) ? `is required (${issue.expected})` : clip(issue.message) };
    default:
      return { path, message: clip(issue.message) };
  }
}

/**
 * Schema issues as bounded, readable views: union failures name the allowed values or shapes,
 * unknown keys are listed (clipped), every echoed name and value is bounded. The one formatter of
 * every front end: the same bad recipe gives the same issues through the CLI and through MCP.
 */
export function describeIssues(issues: readonly Issue[], base: readonly PropertyKey[] = []): IssueView[] {
  return issues.slice(0, MAX_ISSUES).map((i) => describeIssue(i, base));
}

/**
 * The refusal of a value that failed its schema: `invalid_request`, reason `schema`, the first
 * issue in the message ("invalid recipe at operations.0.block: …") and every issue (≤ 8) in
 * `details.issues`. `extra` adds details (a tool's allowed argument names).
 */
export function schemaError(
  subject: string,
  issues: readonly Issue[],
  base: readonly PropertyKey[] = [],
  extra: Readonly<Record<string, unknown>> = {},
): McbError {
  const described = describeIssues(issues, base);
  const first = described[0];
  return mcbError("invalid_request", `invalid ${subject}${first ? ` at ${first.path || "(root)"}: ${first.message}` : ""}`, {
    reason: "schema",
    issues: described,
    ...extra,
  });
}
