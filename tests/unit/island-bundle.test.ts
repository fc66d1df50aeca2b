/**
 * The islands are bundled in two esbuild runs: the site's (with the engine's public ones, the
 * search) and the admin's screens. A change to an admin screen must leave the public pages'
 * scripts, and the names caches key them by, as they were.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleIslands } from '../../src/islands/bundle';

describe('bundleIslands', () => {
  let dir: string;
  const admin = () => join(dir, 'engine', 'AdminScreen.tsx');
  const bundle = () =>
    bundleIslands(join(dir, 'templates'), ['Counter'], 'preact', {}, { AdminScreen: admin() }, ['AdminScreen']);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-islands-'));
    await mkdir(join(dir, 'templates', 'islands'), { recursive: true });
    await mkdir(join(dir, 'engine'));
    await writeFile(
      join(dir, 'templates', 'islands', 'Counter.tsx'),
      'import { useState } from \'react\';\nexport default function Counter() { const [n, setN] = useState(0); return <button type="button" onClick={() => setN(n + 1)}>{n}</button>; }\n',
    );
    await writeFile(
      admin(),
      "import { useState } from 'react';\nexport default function AdminScreen() { const [open] = useState(false); return <p>{open ? 'open' : 'closed'}</p>; }\n",
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("keeps the site islands' entries and chunks when only an admin screen changes", async () => {
    const before = await bundle();
    await writeFile(
      admin(),
      "import { useState } from 'react';\nexport default function AdminScreen() { const [open] = useState(true); return <p>{open ? 'shown' : 'hidden'}</p>; }\n",
    );
    const after = await bundle();
    expect(after.entries.Counter).toBe(before.entries.Counter);
    expect(after.graph.Counter).toEqual(before.graph.Counter);
    for (const file of before.graph.Counter!)
      expect(after.files.get(file.slice(1))).toEqual(before.files.get(file.slice(1)));
    expect(after.entries.AdminScreen).not.toBe(before.entries.AdminScreen);
    // The admin screen loads none of the site's chunks: its own run made its own.
    expect(
      after.graph.AdminScreen!.some((file) => before.graph.Counter!.includes(file) && file !== before.entries.Counter),
    ).toBe(false);
  });
});
