import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('adds the entries of a build that keeps the rest to a tail beside the pack, leaving the pack as it was', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    await first.write('a', 'alpha');
    await first.write('b', 'beta');
    await first.settled();
    const [main] = readdirSync(join(root, 'compress'));
    const before = readFileSync(join(root, 'compress', main!));

    const edit = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    await edit.write('c', 'gamma');
    await edit.write('a', 'alpha, edited');
    await edit.settled();
    expect(readdirSync(join(root, 'compress')).sort()).toEqual([main, main!.replace('.pack', '.tail.pack')].sort());
    expect(readFileSync(join(root, 'compress', main!)).equals(before)).toBe(true);

    const again = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    await again.write('d', 'delta');
    await again.settled();
    const next = openPackCache('compress', '/site/dist', root);
    // The tail's value of a key comes before the pack's.
    expect(['a', 'b', 'c', 'd'].map((key) => next.readSync(key)?.toString())).toEqual([
      'alpha, edited',
      'beta',
      'gamma',
      'delta',
    ]);
    // A build that uses every entry and adds none rewrites nothing: the tail stays.
    await next.settled();
    expect(readdirSync(join(root, 'compress'))).toHaveLength(2);
  });

  it('writes the pack and its tail as one once the tail grows past its share, and drops the tail when a build keeps only what it used', async () => {
    const first = openPackCache('compress', '/site/dist', root);
    await first.write('a', 'alpha');
    await first.settled();
    const big = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    await big.write('small', 'x');
    await big.settled();
    expect(readdirSync(join(root, 'compress'))).toHaveLength(2);
    const large = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    await large.write('large', Buffer.alloc(1024 * 1024 + 1, 1));
    await large.settled();
    expect(readdirSync(join(root, 'compress'))).toHaveLength(1);
    const merged = openPackCache('compress', '/site/dist', root, { keepUnused: true });
    expect(['a', 'small'].map((key) => merged.readSync(key)?.toString())).toEqual(['alpha', 'x']);
    expect(merged.readSync('large')?.byteLength).toBe(1024 * 1024 + 1);
    await merged.write('tail', 'again');
    await merged.settled();
    expect(readdirSync(join(root, 'compress'))).toHaveLength(2);

    const full = openPackCache('compress', '/site/dist', root);
    expect(full.readSync('tail')?.toString()).toBe('again');
    await full.write('new', 'entry');
    await full.settled();
    expect(readdirSync(join(root, 'compress'))).toHaveLength(1);
    const last = openPackCache('compress', '/site/dist', root);
    expect(['tail', 'new', 'a'].map((key) => last.readSync(key)?.toString())).toEqual(['again', 'entry', undefined]);
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
