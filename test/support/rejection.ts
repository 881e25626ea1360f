import { expect } from 'vitest';
import { OmrError } from '../../src/errors.js';

/** The `OmrError` a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<OmrError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(OmrError);
    return err as OmrError;
  }
  throw new Error('expected a rejection');
}
