/**
 * Credits as the service keeps them: one per page, charged at start,
 * reverted when a job fails or is canceled. Local engines are unlimited
 * unless the host configures a balance, which is kept in the store so it
 * survives restarts like the jobs it paid for.
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

export function createLedger(store: Store, initial: number | undefined): CreditLedger {
  if (initial === undefined) {
    return { remaining: async () => undefined, charge: async () => {}, refund: async () => {} };
  }
  let balance: Promise<number> = store.get('meta', KEY).then(async (saved) => {
    if (typeof saved === 'number') return saved;
    await store.put('meta', KEY, initial);
    return initial;
  });
  // Serialised through one promise chain, so concurrent starts cannot both spend the last credit.
  const update = (change: (current: number) => number): Promise<void> => {
    const previous = balance;
    const next = previous.then(async (current) => {
      const value = change(current);
      await store.put('meta', KEY, value);
      return value;
    });
    balance = next.catch(() => previous);
    return next.then(() => undefined);
  };
  return {
    remaining: () => balance,
    charge: (n) =>
      update((current) => {
        if (n > current) throw new OmrError('OMR_INSUFFICIENT_CREDITS', `Starting this job needs ${n} credit(s) (one per page); ${current} remain.`);
        return current - n;
      }),
    refund: (n) => update((current) => current + n),
  };
}
