/**
 * Who may call the server: bearer tokens, each tied to an account and a set
 * of scopes, read from a JSON file.
 *
 *   [
 *     { "token": "s3cret-alice", "account": "alice", "scopes": ["omr", "scores", "tasks.readonly"], "kind": "personal" },
 *     { "token": "app-for-bob", "account": "bob", "scopes": ["omr"], "kind": "oauth", "rateLimit": 600 }
 *   ]
 *
 * `kind` is `personal` (the default) or `oauth`; `rateLimit` (requests per
 * window) overrides the server's authenticated limit for that account.
 * Scopes follow the spec: `omr` on every authenticated request; for OAuth
 * tokens also `scores` where a score is created or read and
 * `tasks.readonly` to poll tasks. A personal token is its owner's own
 * credential, so like the service it needs only `omr`.
 */
import { readFile } from 'node:fs/promises';
import { OmrError } from '../errors.js';

export type TokenKind = 'personal' | 'oauth';
export const SCOPES = ['omr', 'scores', 'tasks.readonly'] as const;

export interface TokenEntry {
  token: string;
  /** Jobs, scores, credits and rate limits belong to the account. */
  account: string;
  scopes: string[];
  kind?: TokenKind;
  /** Requests per rate-limit window for this account, instead of the server's default. */
  rateLimit?: number;
}

/** Account names become directory names under the store, so they are kept plain. */
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export async function loadTokens(file: string): Promise<TokenEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(err as Error).message})`;
    throw new OmrError('INVALID_ARGUMENT', `The tokens file ${file} ${reason}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new OmrError('INVALID_ARGUMENT', `The tokens file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return validateTokens(json, file);
}

/** Checks a token list, naming the first bad entry and field. */
export function validateTokens(value: unknown, source = 'tokens'): TokenEntry[] {
  const bad = (message: string): never => {
    throw new OmrError('INVALID_ARGUMENT', `${source}: ${message}`);
  };
  if (!Array.isArray(value) || value.length === 0) bad('expected a non-empty array of { token, account, scopes, kind }.');
  const seen = new Set<string>();
  return (value as unknown[]).map((raw, i) => {
    const at = `entry ${i}`;
    if (typeof raw !== 'object' || raw === null) return bad(`${at} is not an object.`);
    const entry = raw as Record<string, unknown>;
    if (typeof entry.token !== 'string' || entry.token.length < 8 || /\s/.test(entry.token)) bad(`${at}: token must be a string of at least 8 characters without spaces.`);
    if (seen.has(entry.token as string)) bad(`${at}: the same token is listed twice.`);
    seen.add(entry.token as string);
    if (typeof entry.account !== 'string' || !ACCOUNT_NAME.test(entry.account)) bad(`${at}: account must be 1–64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit.`);
    if (!Array.isArray(entry.scopes) || !entry.scopes.every((s) => typeof s === 'string')) bad(`${at}: scopes must be an array such as ["omr", "scores", "tasks.readonly"].`);
    const unknown = (entry.scopes as string[]).filter((s) => !(SCOPES as readonly string[]).includes(s));
    if (unknown.length) bad(`${at}: unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}.`);
    if (entry.kind !== undefined && entry.kind !== 'personal' && entry.kind !== 'oauth') bad(`${at}: kind must be "personal" or "oauth".`);
    if (entry.rateLimit !== undefined && (!Number.isInteger(entry.rateLimit) || (entry.rateLimit as number) < 1)) bad(`${at}: rateLimit must be a positive integer (requests per window).`);
    return {
      token: entry.token as string,
      account: entry.account as string,
      scopes: [...(entry.scopes as string[])],
      kind: (entry.kind as TokenKind | undefined) ?? 'personal',
      ...(entry.rateLimit !== undefined ? { rateLimit: entry.rateLimit as number } : {}),
    };
  });
}

/** Refuses a request whose token lacks `scope`; OAuth-only scopes are not asked of personal tokens. */
export function requireScope(entry: TokenEntry, scope: (typeof SCOPES)[number]): void {
  if (entry.scopes.includes(scope) || (scope !== 'omr' && entry.kind !== 'oauth')) return;
  const code = scope === 'omr' ? 'OMR_SCOPE_REQUIRED' : scope === 'scores' ? 'SCORES_SCOPE_REQUIRED' : 'TASKS_SCOPE_REQUIRED';
  const why =
    scope === 'omr'
      ? 'every OMR request needs it'
      : scope === 'scores'
        ? 'an OAuth token needs it to create or read library scores (jobs with output "library", the default, and score imports); jobs with output "musicxml" need only "omr"'
        : 'an OAuth token needs it to poll tasks';
  throw new OmrError(code, `This token lacks the "${scope}" scope: ${why}. Authorize it with that scope.`);
}
