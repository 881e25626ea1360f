/**
 * Credits as the service keeps them: one per page, charged at start,
 * reverted when a job fails or is canceled. Local engines are unlimited
 * unless the host configures a balance, which is kept in the store so it
 * survives restarts like the jobs it paid for, and is rebuilt from those
 * jobs when the stored balance is damaged.
 */
import { OmrError } from '../errors.js';
import type { Store } from '../storage/store.js';

export interface CreditLedger {
  /** Remaining credits; undefined when unlimited. */
  remaining(): Promise<number | undefined>;
  /** Charges `n` credits, or throws `OMR_INSUFFICIENT_CREDITS` (402) and charges nothing. */
  charge(n: number): Promise<void>;
  refund(n: number): Promise<void>;
}

const KEY = 'credits';

export interface LedgerOpening {
  /** Credits the stored jobs hold: charged at start and not reverted. */
  held: number;
  /** Job records were found damaged as the engine opened: their charges are unknown. */
  jobsDamaged: boolean;
  /** Told when the balance was rebuilt instead of read. */
  warn(code: string, message: string): void;
}

/**
 * Opens the account's ledger once the jobs are loaded, because the balance
 * is rebuilt from them when it cannot be trusted. The grant minus what the
 * jobs hold is what the balance is whenever nothing was lost, so:
 *
 * - a damaged or malformed balance is moved aside and rebuilt that way,
 *   rather than reset to the grant;
 * - when job records were damaged, their charges went with them: the
 *   balance rises to the rebuilt one (never falls), so a job that was lost
 *   is refunded.
 */
export async function openLedger(store: Store, initial: number | undefined, opening: LedgerOpening): Promise<CreditLedger> {
  if (initial === undefined) {
    return { remaining: async () => undefined, charge: async () => {}, refund: async () => {} };
  }
  const rebuilt = Math.max(0, initial - opening.held);
  const listed = (await store.keys('meta', KEY)).includes(KEY);
  const saved = listed ? await store.get('meta', KEY) : undefined;
  let start: number;
  if (isBalance(saved)) {
    start = opening.jobsDamaged ? Math.max(saved, rebuilt) : saved;
    if (start !== saved) opening.warn('CREDITS_REBUILT', `Credits went from ${saved} to ${start}: damaged job records were set aside, and the charges they held are refunded.`);
  } else if (!listed) {
    start = initial; // the first open with a balance: the grant
  } else {
    start = rebuilt;
    // Read as undefined: the store already moved it aside; of the wrong shape: moved aside here.
    if (saved !== undefined) await store.quarantine('meta', KEY);
    opening.warn('CREDITS_REBUILT', `The stored credit balance was damaged and was set aside; it was rebuilt from the jobs as ${start} (the grant of ${initial} less ${opening.held} held by jobs).`);
  }
  let balance: Promise<number> = Promise.resolve(start);
  // Serialised through one promise chain, so concurrent starts cannot both spend the last credit.
  // A charge whose write fails did not happen; a refund whose write fails still stands in memory
  // (credits are owed either way), and the next write stores it.
  const update = (change: (current: number) => number, keepIfUnwritten = false): Promise<void> => {
    const previous = balance;
    let changed: number | undefined;
    const next = previous.then(async (current) => {
      changed = change(current);
      await store.put('meta', KEY, changed);
      return changed;
    });
    balance = next.catch(() => (keepIfUnwritten && changed !== undefined ? changed : previous));
    return next.then(() => undefined);
  };
  if (saved !== start) {
    // Written now so the next open reads it; if the store refuses, the next change writes it again.
    await update(() => start).catch(() => {});
  }
  return {
    remaining: () => balance,
    charge: (n) =>
      update((current) => {
        if (n > current) throw new OmrError('OMR_INSUFFICIENT_CREDITS', `Starting this job needs ${n} credit(s) (one per page); ${current} remain.`);
        return current - n;
      }),
    refund: (n) => update((current) => current + n, true),
  };
}

function isBalance(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
