/**
 * The job records of one client, held in memory and written through to the
 * store. Every change to a job goes through `update`, one at a time per job,
 * so the pipeline's progress and a caller's cancel can never overwrite each
 * other; every change wakes the long-polls waiting on that job.
 */
import { OmrError } from '../errors.js';
import type { Store } from '../storage/store.js';
import { jobRecordProblem, type JobRecord } from './records.js';

/** A stored job record left out as it loaded, moved to the store's quarantine. */
export interface DamagedJob {
  id: string;
  /** What was wrong with it. */
  problem: string;
}

/** Calls `end` after `ms` unless the function it returns is called first. */
export type LongPollTimer = (end: () => void, ms: number) => () => void;

const defaultLongPollTimer: LongPollTimer = (end, ms) => {
  const timer = setTimeout(end, ms);
  return () => clearTimeout(timer);
};

export class JobTable {
  private readonly records = new Map<string, JobRecord>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private nextSeq = 1;

  constructor(
    private readonly store: Store,
    /** Starts the timer that ends a long-poll's wait; returns what stops it (see `LocalClientOptions.longPollTimer`). */
    private readonly startTimer: LongPollTimer = defaultLongPollTimer,
  ) {}

  /**
   * Loads every stored job. A record that cannot be read (the store moved
   * it aside) or has the wrong shape (moved aside here) is left out and
   * returned, so one damaged record never stops the engine from opening.
   */
  async load(): Promise<DamagedJob[]> {
    const damaged: DamagedJob[] = [];
    for (const id of await this.store.keys('jobs')) {
      const record = await this.store.get('jobs', id);
      if (record === undefined) {
        damaged.push({ id, problem: 'it could not be read' });
        continue;
      }
      const problem = jobRecordProblem(record, id);
      if (problem) {
        await this.store.quarantine('jobs', id);
        damaged.push({ id, problem });
        continue;
      }
      this.records.set(id, record);
      this.nextSeq = Math.max(this.nextSeq, record.seq + 1);
    }
    return damaged;
  }

  seq(): number {
    return this.nextSeq++;
  }

  find(id: string): JobRecord | undefined {
    return this.records.get(id);
  }

  get(id: string): JobRecord {
    const record = this.records.get(id);
    if (!record) throw new OmrError('OMR_JOB_NOT_FOUND', `No job ${JSON.stringify(id)} exists (or it belongs to another account).`);
    return record;
  }

  all(): JobRecord[] {
    return [...this.records.values()];
  }

  async insert(record: JobRecord): Promise<void> {
    await this.store.put('jobs', record.job.id, record);
    this.records.set(record.job.id, record);
    this.notify(record.job.id);
  }

  /**
   * Applies `change` to the current record and stores the result; `change`
   * may throw to refuse (nothing is written). Returns the new record.
   */
  update(id: string, change: (record: JobRecord) => JobRecord | Promise<JobRecord>): Promise<JobRecord> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const next = await change(this.get(id));
      if (next !== this.records.get(id)) {
        await this.store.put('jobs', id, next);
        this.records.set(id, next);
        this.notify(id);
      }
      return next;
    });
    const settled = run.catch(() => undefined);
    this.locks.set(id, settled);
    void settled.then(() => {
      if (this.locks.get(id) === settled) this.locks.delete(id);
    });
    return run;
  }

  /**
   * Removes a job, in turn with its other changes: `erase` sees the current
   * record and says whether it goes (after erasing what belongs to it).
   */
  remove(id: string, erase: (record: JobRecord) => Promise<boolean>): Promise<boolean> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.then(async () => {
      const current = this.records.get(id);
      if (!current || !(await erase(current))) return false;
      await this.store.delete('jobs', id);
      this.records.delete(id);
      this.notify(id);
      return true;
    });
    const settled = run.catch(() => undefined);
    this.locks.set(id, settled);
    void settled.then(() => {
      if (this.locks.get(id) === settled) this.locks.delete(id);
    });
    return run;
  }

  /** Resolves on the job's next change, or after `ms`. */
  changed(id: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(id) ?? new Set();
      this.waiters.set(id, set);
      let stopTimer: (() => void) | undefined;
      const done = () => {
        stopTimer?.();
        set.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      stopTimer = this.startTimer(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  /** Wakes every waiter (when the client closes). */
  wakeAll(): void {
    for (const id of this.waiters.keys()) this.notify(id);
  }

  private notify(id: string): void {
    const set = this.waiters.get(id);
    if (!set) return;
    this.waiters.delete(id);
    for (const wake of set) wake();
  }
}
