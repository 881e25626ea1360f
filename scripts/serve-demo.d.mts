// Types of scripts/serve-demo.mjs, for the browser tests that start it.
export interface DemoServer {
  /** `http://host:port/`, with the trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** 0 picks a free port; 8080 unless told. */
  port?: number;
  host?: string;
  /** Send COOP/COEP, making the page cross-origin isolated (inference on several threads). */
  isolated?: boolean;
  /** Log each request when false. */
  quiet?: boolean;
}

export const MOUNTS: readonly { prefix: string; dir: string; only?: readonly string[] }[];
export const MIME_TYPES: Readonly<Record<string, string>>;
export function resolvePath(urlPath: string): string | undefined;
export function ensureBuilt(): void;
export function startDemoServer(options?: DemoServerOptions): Promise<DemoServer>;
export function exportSite(dir: string): void;

export interface DemoCommandLine extends Required<Omit<DemoServerOptions, 'quiet'>> {
  export: string | undefined;
  help: boolean;
}

/** What `--help` prints. */
export const USAGE: string;
export function parseArgs(argv: readonly string[]): DemoCommandLine;
/** One line for an address the server cannot listen on (busy port, no privilege, unknown host); undefined otherwise. */
export function listenProblem(err: unknown, address: { port: number; host: string }): string | undefined;
