import { describe, expect, it } from 'vitest';
import { validateContact } from '../../src/islands/contact-schema';

/** The Mendwise site's enquiry types (site.config.yaml contact.types). */
const types = ['repairer', 'retailer', 'investor', 'partner', 'other'];

const valid = {
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.no',
  message: 'Hei!',
  type: 'repairer',
  locale: 'no',
};

describe('contact schema (browser and server)', () => {
  it('accepts a complete submission and trims it', () => {
    const result = validateContact({ ...valid, firstName: '  Kari ' }, types);
    expect(result).toEqual({ data: { ...valid, firstName: 'Kari', company: '', subject: '', page: '/' } });
  });

  it('names every missing required field', () => {
    expect(validateContact({}, types)).toEqual({
      fieldErrors: { firstName: 'required', lastName: 'required', email: 'required', message: 'required' },
    });
    expect(validateContact({ ...valid, message: '   ' }, types)).toEqual({ fieldErrors: { message: 'required' } });
  });

  it('gives an invalid e-mail its own message', () => {
    expect(validateContact({ ...valid, email: 'kari@' }, types)).toEqual({ fieldErrors: { email: 'invalidEmail' } });
  });

  it('refuses unknown enquiry types, overlong text and hostile values', () => {
    expect(validateContact({ ...valid, type: 'admin' }, types)).toEqual({ fieldErrors: { type: 'invalid' } });
    expect(validateContact({ ...valid, message: 'x'.repeat(5001) }, types)).toEqual({
      fieldErrors: { message: 'tooLong' },
    });
    expect(validateContact({ ...valid, firstName: { $gt: '' } }, types)).toEqual({
      fieldErrors: { firstName: 'required' },
    });
    expect(validateContact({ ...valid, locale: '../../etc' }, types)).toEqual({ fieldErrors: { locale: 'invalid' } });
  });

  it('defaults the type to other, also when the empty choice is sent', () => {
    const { type: _type, ...rest } = valid;
    expect(validateContact(rest, types)).toMatchObject({ data: { type: 'other' } });
    expect(validateContact({ ...valid, type: '' }, types)).toMatchObject({ data: { type: 'other' } });
  });
});
