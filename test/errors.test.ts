import { describe, expect, it } from 'vitest';
import { OmrError } from '../src/errors.js';

describe('OmrError', () => {
  it('carries a code, the service status and a message', () => {
    const e = new OmrError('OMR_JOB_NOT_DONE', 'The job is still processing; try again when it is done.');
    expect(e).toBeInstanceOf(Error);
    expect([e.name, e.code, e.status]).toEqual(['OmrError', 'OMR_JOB_NOT_DONE', 409]);
    expect(new OmrError('OMR_SCOPE_REQUIRED', 'x').status).toBe(403);
    expect(new OmrError('CORRUPTED_FILE', 'x').status).toBe(400);
    expect(new OmrError('CORRUPTED_FILE', 'x', { status: 422 }).status).toBe(422);
  });

  it('survives structured cloning (a worker boundary) through its JSON form', () => {
    const e = new OmrError('ENCRYPTED_PDF', 'The PDF is password-protected.');
    const revived = OmrError.from(structuredClone(e.toJSON()));
    expect(revived).toBeInstanceOf(OmrError);
    expect(revived.toJSON()).toEqual(e.toJSON());
    expect(JSON.parse(JSON.stringify(e))).toEqual(e.toJSON());
  });

  it('turns anything else into INTERNAL_ERROR with its message', () => {
    const revived = OmrError.from(new TypeError('x is undefined'));
    expect([revived.code, revived.status, revived.message]).toEqual(['INTERNAL_ERROR', 500, 'x is undefined']);
    expect(OmrError.from('boom').message).toBe('boom');
    expect(OmrError.from({ name: 'OmrError', code: 'X' }).code).toBe('INTERNAL_ERROR');
  });
});
