/** The conformance suite against the local engine: two accounts are two clients, each with its own store. */
import { createClient } from '../../src/jobs/local-client.js';
import { createMemoryStore } from '../../src/storage/memory-store.js';
import { createFakePool } from '../support/fake-pool.js';
import { conformanceSuite } from './scenarios.js';

conformanceSuite('local', 'local', async (options = {}) => {
  const pool = createFakePool(options.pool);
  let offset = 0;
  const engine = { pool, sweepIntervalMs: 0, now: () => new Date(Date.now() + offset), ...options.engine };
  const client = createClient({ store: createMemoryStore(), ...engine });
  const other = createClient({ store: createMemoryStore(), ...engine });
  return {
    client,
    other,
    pool,
    async advanceClock(ms) {
      offset += ms;
      await client.sweepRetention();
      await other.sweepRetention();
    },
    async close() {
      await Promise.all([client.close(), other.close()]);
      await pool.close();
    },
  };
});
