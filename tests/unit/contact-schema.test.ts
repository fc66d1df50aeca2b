import { describe, expect, it } from 'vitest';
import { validateContact } from '../../src/islands/contact-schema';

const valid = { firstName: 'Kari', lastName: 'Nordmann', email: 'kari@example.no', message: 'Hei!', type: 'repairer', locale: 'no' };

describe('contact schema (browser and server)', () => {
  it('accepts a complete submission and trims it', () => {
    const result = validateContact({ ...valid, firstName: '  Kari ' });
    expect(result).toEqual({ data: { ...valid, firstName: 'Kari', company: '', subject: '', page: '/' } });
  });

  it('names every missing required field', () => {
    expect(validateContact({})).toEqual({ fieldErrors: { firstName: 'required', lastName: 'required', email: 'required', message: 'required' } });
    expect(validateContact({ ...valid, message: '   ' })).toEqual({ fieldErrors: { message: 'required' } });
  });

  it('gives an invalid e-mail its own message', () => {
    expect(validateContact({ ...valid, email: 'kari@' })).toEqual({ fieldErrors: { email: 'invalidEmail' } });
  });

  it('refuses unknown enquiry types, overlong text and hostile values', () => {
    expect(validateContact({ ...valid, type: 'admin' })).toEqual({ fieldErrors: { type: 'invalid' } });
    expect(validateContact({ ...valid, message: 'x'.repeat(5001) })).toEqual({ fieldErrors: { message: 'tooLong' } });
    expect(validateContact({ ...valid, firstName: { $gt: '' } })).toEqual({ fieldErrors: { firstName: 'required' } });
    expect(validateContact({ ...valid, locale: '../../etc' })).toEqual({ fieldErrors: { locale: 'invalid' } });
  });

  it('defaults the type to other, also when the empty choice is sent', () => {
    const { type: _type, ...rest } = valid;
    expect(validateContact(rest)).toMatchObject({ data: { type: 'other' } });
    expect(validateContact({ ...valid, type: '' })).toMatchObject({ data: { type: 'other' } });
  });
});
