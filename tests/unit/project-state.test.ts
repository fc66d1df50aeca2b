/** The check that ends every `npm test`: the project's own data/ and .site/ are as they were. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeChanges, projectState } from '../helpers/global-setup';

it('names every file of data/ and .site/ that a run added, changed or removed', async () => {
  const root = await mkdtemp(join(tmpdir(), 'site-state-'));
  try {
    await mkdir(join(root, 'data'));
    await mkdir(join(root, '.site'));
    await writeFile(join(root, 'data', 'contact-submissions.jsonl'), '{"firstName":"Kari"}\n');
    await writeFile(join(root, '.site', 'admins.json'), '[]');
    await writeFile(join(root, 'notes.txt'), 'not stored data');
    const before = await projectState(root);
    expect(describeChanges(before, await projectState(root))).toEqual([]);
    await writeFile(join(root, 'data', 'contact-submissions.jsonl'), '{"firstName":"Kari"}\n{"firstName":"Ada"}\n');
    await writeFile(join(root, 'data', 'booking-requests.jsonl'), '{}\n');
    await rm(join(root, '.site', 'admins.json'));
    await writeFile(join(root, 'notes.txt'), 'edited, but not stored data');
    expect(describeChanges(before, await projectState(root))).toEqual([
      'added data/booking-requests.jsonl',
      'changed data/contact-submissions.jsonl',
      'removed .site/admins.json',
    ]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
