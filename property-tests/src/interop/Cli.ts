import { main } from "@mcb/bridge";

// Not exported from the package's index: importing the bridge costs every test that only wants the harness a second.

/** What one `mcb` command printed and its exit status. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the `mcb` command line in this process (`main(argv, io)`, as the bin does), capturing what it writes. */
export async function mcb(...args: string[]): Promise<CliRun> {
  let stdout = "",
    stderr = "";
  const code = await main(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, env: process.env });
  return { code, stdout, stderr };
}

/** The structured error a failed command printed (the last line of its stderr). */
export function cliError(r: CliRun): { code: string; message: string; retryable: boolean; details?: Record<string, unknown> } {
  return (JSON.parse(r.stderr.trim().split("\n").at(-1) ?? "") as { error: ReturnType<typeof cliError> }).error;
}
