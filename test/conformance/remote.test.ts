/**
 * The conformance suite against the hosted-service adapter, talking over
 * loopback HTTP to the self-hosted server (one per scenario, on a free
 * port), whose accounts run the same local engine on a fake pool.
 */
import { createRemoteClient, type RemoteClientOptions } from '../../src/remote/remote-client.js';
import { createOmrServer } from '../../src/server/server.js';
import type { TokenEntry } from '../../src/server/tokens.js';
import { createFakePool } from '../support/fake-pool.js';
import { conformanceSuite } from './scenarios.js';

const WINDOW_MS = 3000;
const LIMITED_TO = 4;

const TOKENS: TokenEntry[] = [
  { token: 'alice-token', account: 'alice', scopes: ['omr', 'scores', 'tasks.readonly'], kind: 'oauth' },
  { token: 'bob-token-1', account: 'bob', scopes: ['omr', 'scores', 'tasks.readonly'], kind: 'personal' },
  { token: 'personal-no-omr', account: 'carol', scopes: ['scores', 'tasks.readonly'], kind: 'personal' },
  { token: 'personal-omr-only', account: 'dave', scopes: ['omr'], kind: 'personal' },
  { token: 'oauth-omr-only', account: 'erin', scopes: ['omr'], kind: 'oauth' },
  { token: 'oauth-no-tasks', account: 'frank', scopes: ['omr', 'scores'], kind: 'oauth' },
  { token: 'limited-token', account: 'grace', scopes: ['omr', 'scores', 'tasks.readonly'], kind: 'personal', rateLimit: LIMITED_TO },
];

conformanceSuite('remote', 'remote', async (options = {}) => {
  const pool = createFakePool(options.pool);
  let offset = 0;
  const server = createOmrServer({
    tokens: TOKENS,
    clientOptions: { pool, sweepIntervalMs: 0, now: () => new Date(Date.now() + offset), ...options.engine },
    limits: { windowMs: WINDOW_MS },
  });
  const baseUrl = await server.listen(0, '127.0.0.1');
  const as = (token?: string, extra: Partial<RemoteClientOptions> = {}) => createRemoteClient({ baseUrl, ...(token ? { token } : {}), ...extra });
  return {
    client: as('alice-token'),
    other: as('bob-token-1'),
    pool,
    async advanceClock(ms) {
      offset += ms;
      await server.sweepRetention();
    },
    remote: {
      anonymous: as(),
      unknownToken: as('not-a-token-here'),
      personalWithoutOmr: as('personal-no-omr'),
      personalOmrOnly: as('personal-omr-only'),
      oauthOmrOnly: as('oauth-omr-only'),
      oauthWithoutTasks: as('oauth-no-tasks'),
      limited: as('limited-token'),
      limitedPatient: as('limited-token', { rateLimitRetryBudgetMs: WINDOW_MS + 1000 }),
      limitedTo: LIMITED_TO,
      windowMs: WINDOW_MS,
    },
    async close() {
      await server.close();
      await pool.close();
    },
  };
});
