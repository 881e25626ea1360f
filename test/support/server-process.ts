/**
 * `scoresight serve` as a child process, for tests that kill, signal and
 * restart the real server: started from the TypeScript source through the
 * benchmarks' loader (`test/support/serve-child.mjs`), on any free port,
 * with what it prints kept for the test to read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  /** `http://127.0.0.1:<port>/v2`. */
  url: string;
  pid: number;
  /** Everything printed on stdout and stderr so far. */
  output(): string;
  /** Settles when the process has exited: its code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
  /** Sends `signal` and waits for the process to exit. */
  stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The most resident memory the process has held so far, in bytes (Linux `VmHWM`); undefined where /proc cannot tell. */
  peakRss(): number | undefined;
}

/** Starts `scoresight serve <args>` and resolves once it listens; rejects with what it printed if it exits first. */
export function startServer(args: string[], readyWithinMs = 120_000): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', './bench/node/register.mjs', 'test/support/serve-child.mjs', 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += chunk));
  child.stderr!.on('data', (chunk) => (text += chunk));
  let running = true;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running = false;
      resolve({ code, signal });
    }),
  );
  const server: Omit<ServerProcess, 'url'> = {
    pid: child.pid!,
    output: () => text,
    exited,
    alive: () => running,
    async stop(signal) {
      if (running) child.kill(signal);
      return exited;
    },
    peakRss() {
      try {
        const kib = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        return kib === undefined ? undefined : Number(kib) * 1024;
      } catch {
        return undefined;
      }
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`scoresight serve did not start listening:\n${text}`));
    }, readyWithinMs);
    const check = () => {
      const url = /listening on (\S+)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({ ...server, url });
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`scoresight serve exited (${code ?? signal}) before listening:\n${text}`));
    });
  });
}
