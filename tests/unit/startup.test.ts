/**
 * What `site` loads when it starts: the Markdown stack (unified, micromark, remark, rehype:
 * hundreds of small modules, 100 ms and more) only when Markdown is to be parsed, not for every
 * command or for a build whose posts are all cached.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
/** A module hook that names on stderr each Markdown module the process loads. */
const hook =
  'export async function resolve(specifier, context, next) { if (/^(unified|micromark|remark-|rehype-|mdast-)|markdown-stack\\.js$/.test(specifier)) console.error(`loaded ${specifier}`); return next(specifier, context); }';
const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)})`;

async function loaded(args: readonly string[], env: Record<string, string> = {}): Promise<string[]> {
  const { stderr } = await run(process.execPath, ['--import', register, join(repoRoot, 'bin', 'site.js'), ...args], {
    env: { ...process.env, ...env },
  });
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
}

describe('start-up', () => {
  it('does not load the Markdown stack for a command that parses no Markdown', async () => {
    expect(await loaded(['--version'])).toEqual([]);
  });

  it('loads it, bundled in one module, when posts are parsed, and not when they all come from the cache', async () => {
    const cache = await mkdtemp(join(outputRoot, 'startup-cache-'));
    try {
      const config = join(fixturesRoot, 'engine-site', 'site.config.yaml');
      expect(await loaded(['check', '-c', config], { SITE_CACHE_DIR: cache })).toEqual([
        pathToFileURL(join(repoRoot, 'lib', 'markdown-stack.js')).href,
      ]);
      expect(await loaded(['check', '-c', config], { SITE_CACHE_DIR: cache })).toEqual([]);
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  }, 60_000);
});
