import { expose, wrap } from 'comlink';
import { describe, expect, it } from 'vitest';
import { OmrError } from '../../src/errors.js';
import { installOmrErrorTransfer } from '../../src/workers/error-transfer.js';

describe('errors across comlink', () => {
  it('keep an OmrError’s code, status and message, and leave other errors to comlink', async () => {
    installOmrErrorTransfer();
    const { port1, port2 } = new MessageChannel();
    const api: { locked(): Promise<number>; bug(): number } = {
      locked: () => Promise.reject(new OmrError('ENCRYPTED_PDF', '"a.pdf" is protected by a password.', { status: 422 })),
      bug: () => {
        throw new TypeError('x is undefined');
      },
    };
    expose(api, port1);
    const remote = wrap<typeof api>(port2);
    try {
      const locked = await remote.locked().catch((err: unknown) => err);
      expect(locked).toBeInstanceOf(OmrError);
      expect((locked as OmrError).toJSON()).toEqual({ name: 'OmrError', code: 'ENCRYPTED_PDF', status: 422, message: '"a.pdf" is protected by a password.' });
      const bug = await remote.bug().catch((err: unknown) => err);
      expect(bug).not.toBeInstanceOf(OmrError);
      expect(bug).toMatchObject({ name: 'TypeError', message: 'x is undefined' });
    } finally {
      port1.close();
      port2.close();
    }
  });
});
