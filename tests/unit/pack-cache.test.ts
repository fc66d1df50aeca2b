import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPackCache } from '../../src/cache/pack-cache';

describe('pack cache', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-pack-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('gives back what an earlier build stored, and keeps only the entries the last build used', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    expect(first.readSync('a')).toBeUndefined();
    await first.write('a', 'alpha');
    await first.write('b', [Buffer.from('be'), Buffer.from('ta')]);
    await first.settled();

    const second = openPackCache('compress', '/site/dist', root);
    expect(second.readSync('a')?.toString()).toBe('alpha');
    expect(second.readSync('b')?.toString()).toBe('beta');
    await second.settled();

    const third = openPackCache('compress', '/site/dist', root);
    expect(third.readSync('b')?.toString()).toBe('beta');
    await third.settled();
    const fourth = openPackCache('compress', '/site/dist', root);
    expect(fourth.readSync('a')).toBeUndefined();
    expect(fourth.readSync('b')?.toString()).toBe('beta');
    expect(openPackCache('compress', '/other/dist', root).readSync('b')).toBeUndefined();
  });

  it('keeps the entries a build did not use when asked to', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    await first.write('a', 'alpha');
    await first.write('b', 'beta');
    await first.settled();
    const partial = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    expect(partial.readSync('b')?.toString()).toBe('beta');
    await partial.write('c', 'gamma');
    await partial.settled();
    const next = openPackCache('compress', '/site/dist', root);
    expect(['a', 'b', 'c'].map((key) => next.readSync(key)?.toString())).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('treats a damaged pack as empty', async () => {
    const cache = openPackCache('compress', '/site/dist', root);
    await cache.write('a', 'alpha');
    await cache.settled();
    const [pack] = readdirSync(join(root, 'compress'));
    writeFileSync(join(root, 'compress', pack!), 'site-pack 1\n[["a", 9999]]\nshort');
    expect(openPackCache('compress', '/site/dist', root).readSync('a')).toBeUndefined();
  });

  it('writes the entries to disk as they come, and puts the pack in place only when settled', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    await first.write('a', 'alpha');
    const big = Buffer.alloc(1 << 20, 'x');
    await first.write('b', big);
    const folder = join(root, 'compress');
    // Only the spool so far, growing as the entries are written: nothing waits in memory for the end.
    const [spool] = readdirSync(folder);
    expect(spool).toMatch(/\.tmp$/);
    await expect.poll(() => statSync(join(folder, spool!)).size).toBeGreaterThan(big.length);
    expect(openPackCache('compress', '/site/dist', root).readSync('a')).toBeUndefined();
    await first.settled();
    expect(readdirSync(folder)).toEqual([expect.stringMatching(/\.pack$/)]);
    const second = openPackCache('compress', '/site/dist', root);
    expect(second.readSync('a')?.toString()).toBe('alpha');
    expect(second.readSync('b')?.equals(big)).toBe(true);
  });

  it('reads a pack of the first version, and writes it again in the current one with what was used', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    await first.write('a', 'x');
    await first.settled();
    const [pack] = readdirSync(join(root, 'compress'));
    writeFileSync(join(root, 'compress', pack!), 'site-pack 1\n[["a",5],["b",4]]\nalphabeta');
    const old = openPackCache('compress', '/site/dist', root);
    expect(old.readSync('b')?.toString()).toBe('beta');
    await old.write('c', 'gamma');
    await old.settled();
    const next = openPackCache('compress', '/site/dist', root);
    expect(['a', 'b', 'c'].map((key) => next.readSync(key)?.toString())).toEqual([undefined, 'beta', 'gamma']);
  });

  it('removes a spool a stopped build left, after a day', async () => {
    const cache = openPackCache('compress', '/site/dist', root);
    await cache.write('a', 'alpha');
    await cache.settled();
    const folder = join(root, 'compress');
    const [pack] = readdirSync(folder);
    const left = join(folder, `.${pack}.1-00000000.tmp`);
    writeFileSync(left, 'site-pack 2\nalpha');
    const next = openPackCache('compress', '/site/dist', root);
    await next.write('b', 'beta');
    await next.settled();
    expect(readdirSync(folder)).toContain(`.${pack}.1-00000000.tmp`);
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    utimesSync(left, dayAgo, dayAgo);
    const last = openPackCache('compress', '/site/dist', root);
    await last.write('c', 'gamma');
    await last.settled();
    expect(readdirSync(folder)).toEqual([pack]);
  });
});
