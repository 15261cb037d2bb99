/** Where the CLI writes: stdout for results, stderr for errors and progress; the environment it reads. */
export interface CliOut {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

export interface CliIo {
  readonly stdout: CliOut;
  readonly stderr: CliOut;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The process's own streams and environment (the bin's). */
export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}
