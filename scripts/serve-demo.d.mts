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
