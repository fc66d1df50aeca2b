/**
 * The engine's words for its forms (src/islands/forms/form-copy.ts): English and Norwegian with the
 * same keys, a language it has no copy in reads the English, a site's words replace any key, and
 * docs/forms.md lists every key with its English words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';
import { bookingFormText, contactFormText, fillText, formCopy, formCopyOf } from '../../src/islands/forms/form-copy';

describe("the forms' copy", () => {
  it('has every key in both languages, none empty, and the same placeholders in each', () => {
    const placeholders = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
    for (const form of ['contact', 'booking'] as const) {
      const english = formCopy.en![form] as unknown as Record<string, string>;
      const norwegian = formCopy.no![form] as unknown as Record<string, string>;
      expect(Object.keys(norwegian).sort(), form).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        expect(text.trim(), `${form}.${key}`).not.toBe('');
        expect(placeholders(norwegian[key]!), `${form}.${key}`).toEqual(placeholders(text));
      }
    }
  });

  it("reads a locale's own copy, its base language's, or else the English", () => {
    expect(formCopyOf('no').contact.submit).toBe('Send melding');
    expect(formCopyOf('nb').booking.submit).toBe('Bestill møtet');
    expect(formCopyOf('nb-NO').contact.submit).toBe('Send melding');
    expect(formCopyOf('en-GB').contact.submit).toBe('Send message');
    expect(formCopyOf('de').contact.submit).toBe('Send message');
  });

  it("takes a site's words over the engine's, key by key, and only strings", () => {
    const text = contactFormText('no', { submit: 'Send inn', legend: undefined, email: 42 as unknown as string });
    expect(text.submit).toBe('Send inn');
    expect(text.legend).toBe(formCopy.no!.contact.legend);
    expect(text.email).toBe(formCopy.no!.contact.email);
    expect(bookingFormText('en', { clock: '{hh}h{mm}' }).clock).toBe('{hh}h{mm}');
  });

  it('fills placeholders, leaving unknown ones as written', () => {
    expect(fillText('{day} at {time} ({zone})', { day: 'Monday', time: '09:00' })).toBe('Monday at 09:00 ({zone})');
  });

  it('is listed whole in docs/forms.md, each key with its English words', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'forms.md'), 'utf8');
    for (const form of ['contact', 'booking'] as const) {
      for (const [key, text] of Object.entries(formCopy.en![form]))
        expect(doc, `${form}.${key}`).toContain(`| \`${key}\` | ${text} |`);
    }
  });
});
