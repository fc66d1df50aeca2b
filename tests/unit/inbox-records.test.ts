/** The inbox's pure part: ages and cutoffs of prune-inbox, ids of stored lines, CSV cells, the shared filter. */
import { describe, expect, it } from 'vitest';
import { csvCell, cutoffOf, kindOfId, parseAge, readInboxLines, toCsv } from '../../src/store/inbox-records';
import { inboxFilterOf, matchesInboxFilter, type InboxItem } from '../../src/islands/inbox-filter';

describe('parseAge', () => {
  it('reads whole days, weeks and months', () => {
    expect(parseAge('12m')).toEqual({ count: 12, unit: 'm' });
    expect(parseAge('30d')).toEqual({ count: 30, unit: 'd' });
    expect(parseAge(' 8w ')).toEqual({ count: 8, unit: 'w' });
    expect(parseAge('9999d')).toEqual({ count: 9999, unit: 'd' });
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '12',
      'm',
      '0m',
      '012m',
      '-1d',
      '+1d',
      '1.5m',
      '12 m',
      '12M',
      '12y',
      '1h',
      '10000d',
      '12mm',
      'twelve months',
    ])
      expect(parseAge(text), text).toBeUndefined();
  });
});

describe('cutoffOf', () => {
  const at = (iso: string) => Date.parse(iso);
  it('counts days and weeks as 24-hour days, months as calendar months in UTC', () => {
    const now = at('2026-11-24T01:30:00.000Z');
    expect(new Date(cutoffOf({ count: 30, unit: 'd' }, now)).toISOString()).toBe('2026-10-25T01:30:00.000Z');
    expect(new Date(cutoffOf({ count: 2, unit: 'w' }, now)).toISOString()).toBe('2026-11-10T01:30:00.000Z');
    expect(new Date(cutoffOf({ count: 12, unit: 'm' }, now)).toISOString()).toBe('2025-11-24T01:30:00.000Z');
    expect(new Date(cutoffOf({ count: 11, unit: 'm' }, now)).toISOString()).toBe('2025-12-24T01:30:00.000Z');
    expect(new Date(cutoffOf({ count: 25, unit: 'm' }, now)).toISOString()).toBe('2024-10-24T01:30:00.000Z');
  });

  it('keeps to the end of a shorter month', () => {
    expect(new Date(cutoffOf({ count: 1, unit: 'm' }, at('2026-03-31T12:00:00.000Z'))).toISOString()).toBe(
      '2026-02-28T12:00:00.000Z',
    );
    expect(new Date(cutoffOf({ count: 1, unit: 'm' }, at('2024-03-31T12:00:00.000Z'))).toISOString()).toBe(
      '2024-02-29T12:00:00.000Z',
    );
    expect(new Date(cutoffOf({ count: 12, unit: 'm' }, at('2025-02-28T00:00:00.000Z'))).toISOString()).toBe(
      '2024-02-28T00:00:00.000Z',
    );
  });
});

describe('readInboxLines', () => {
  const line = (value: unknown) => Buffer.from(JSON.stringify(value));
  it('names a booking by its own id and a contact submission by the hash of its line, the same every time', () => {
    const contact = line({ receivedAt: '2026-01-01T00:00:00.000Z', firstName: 'Ada' });
    const booking = line({ id: '5f0c8f4e-1111-4c11-9a11-aaaaaaaaaaaa', bookedAt: '2026-01-01T00:00:00.000Z' });
    const [first] = readInboxLines('contact', [contact]);
    expect(first!.id).toMatch(/^contact-[\w-]{22}$/);
    expect(readInboxLines('contact', [Buffer.from('{"other":1}'), contact])[1]!.id).toBe(first!.id);
    expect(readInboxLines('booking', [booking])[0]!.id).toBe('booking-5f0c8f4e-1111-4c11-9a11-aaaaaaaaaaaa');
    expect(readInboxLines('booking', [line({ id: 'bad id!' })])[0]!.id).toMatch(/^booking-[\w-]{22}$/);
    expect(kindOfId(first!.id)).toBe('contact');
    expect(kindOfId('booking-5f0c8f4e')).toBe('booking');
    expect(kindOfId('other-1')).toBeUndefined();
  });

  it('tells byte-identical lines apart by order, and skips lines that are not a JSON object', () => {
    const same = line({ receivedAt: '2026-01-01T00:00:00.000Z' });
    const found = readInboxLines('contact', [
      same,
      Buffer.from('{"receivedAt":"2026-'),
      Buffer.from('[1]'),
      same,
      same,
    ]);
    expect(found.map((entry) => entry.index)).toEqual([0, 3, 4]);
    expect(found[1]!.id).toBe(`${found[0]!.id}.2`);
    expect(found[2]!.id).toBe(`${found[0]!.id}.3`);
  });
});

describe('CSV', () => {
  it('neutralises formulas and quotes what needs it', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+47 22')).toBe("'+47 22");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=cmd')).toBe("'\t=cmd");
    expect(csvCell('=HYPERLINK("x","y")')).toBe(`"'=HYPERLINK(""x"",""y"")"`);
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes a header and one CRLF row per item, with a byte-order mark', () => {
    const csv = toCsv([
      {
        id: 'contact-x',
        kind: 'contact',
        receivedAt: '2026-01-01T00:00:00.000Z',
        handled: false,
        firstName: 'Ada',
        message: '=1',
      },
    ]);
    expect(csv.startsWith('\uFEFFid,kind,receivedAt,handled,')).toBe(true);
    expect(csv.split('\r\n')[1]).toBe("contact-x,contact,2026-01-01T00:00:00.000Z,false,,Ada,,,,,,'=1,,,,,");
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});

describe('the inbox filter', () => {
  const item = (fields: Partial<InboxItem>): InboxItem => ({
    id: 'contact-x',
    kind: 'contact',
    receivedAt: '',
    handled: false,
    ...fields,
  });
  it('searches name, e-mail, company and text, every word, ignoring case', () => {
    const ada = item({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines',
      message: 'About repairs',
    });
    const all = { search: '', kind: '' as const, handled: '' as const };
    expect(matchesInboxFilter(ada, all)).toBe(true);
    for (const search of ['ada', 'LOVELACE', 'ada lovelace', 'engines', 'REPAIRS', 'example.com'])
      expect(matchesInboxFilter(ada, { ...all, search }), search).toBe(true);
    for (const search of ['grace', 'ada grace', 'contact'])
      expect(matchesInboxFilter(ada, { ...all, search }), search).toBe(false);
    expect(
      matchesInboxFilter(item({ kind: 'booking', note: 'Shoes' }), { ...all, search: 'shoes', kind: 'booking' }),
    ).toBe(true);
    expect(matchesInboxFilter(ada, { ...all, kind: 'booking' })).toBe(false);
    expect(matchesInboxFilter(ada, { ...all, handled: 'handled' })).toBe(false);
    expect(matchesInboxFilter(ada, { ...all, handled: 'unhandled' })).toBe(true);
  });

  it('reads a query string; unknown values mean all', () => {
    expect(inboxFilterOf(new URLSearchParams('q=ada+lovelace&kind=booking&handled=unhandled'))).toEqual({
      search: 'ada lovelace',
      kind: 'booking',
      handled: 'unhandled',
    });
    expect(inboxFilterOf(new URLSearchParams('kind=spam&handled=maybe'))).toEqual({
      search: '',
      kind: '',
      handled: '',
    });
  });
});
