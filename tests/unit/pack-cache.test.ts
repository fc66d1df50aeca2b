import { readdirSync, writeFileSync } from 'node:fs';
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
});
