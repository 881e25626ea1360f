/** The turns engines sharing a recognition pool take at it, against a pool with one slot. */
import { describe, expect, it } from 'vitest';
import { PoolTurns } from '../../src/jobs/pool-turns.js';

/** A pool with one slot: `submit` starts a call when the slot is free, else queues it; `finish` frees the slot. */
function oneSlot() {
  const queue: (() => void)[] = [];
  let busy = false;
  const order: string[] = [];
  const done = new Map<string, () => void>();
  const next = () => {
    const start = queue.shift();
    if (start) start();
  };
  return {
    order,
    submit(name: string, started: () => void): Promise<string> {
      return new Promise((resolve) => {
        const start = () => {
          busy = true;
          order.push(name);
          started();
          done.set(name, () => {
            busy = false;
            resolve(name);
            next();
          });
        };
        if (busy) queue.push(start);
        else start();
      });
    },
    finish(name: string) {
      done.get(name)!();
    },
  };
}

describe('turns at a shared pool', () => {
  it('hands calls out lane by lane, least recently served first, keeping each lane in order', async () => {
    const turns = new PoolTurns();
    const pool = oneSlot();
    const [a, b, c] = [{}, {}, {}];
    const runs = ['a1', 'a2', 'a3', 'a4'].map((name) => turns.run(a, (started) => pool.submit(name, started)));
    runs.push(turns.run(b, (started) => pool.submit('b1', started)), turns.run(b, (started) => pool.submit('b2', started)));
    runs.push(turns.run(c, (started) => pool.submit('c1', started)));
    // a1 runs and a2 already waits in the pool; from then on the lanes alternate.
    for (const name of ['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']) {
      await Promise.resolve();
      pool.finish(name);
    }
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'c1']);
    expect(pool.order).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2', 'a4']);
  });

  it('a call refused at once counts as started and passes its error on; the next one still runs', async () => {
    const turns = new PoolTurns();
    const lane = {};
    const refused = turns.run(lane, () => {
      throw new Error('no');
    });
    const rejected = turns.run(lane, () => Promise.reject(new Error('later')));
    const ran = turns.run(lane, async (started) => {
      started();
      return 'ok';
    });
    await expect(refused).rejects.toThrow('no');
    await expect(rejected).rejects.toThrow('later');
    expect(await ran).toBe('ok');
  });
});
