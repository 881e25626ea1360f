import { main } from '../../src/cli/main.js';

/** Runs the `scoresight` command in-process, collecting what it prints and its exit code. */
export async function runCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
