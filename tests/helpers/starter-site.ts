/**
 * A project made by `site init` in a temp folder of tests/.output, its `typed-site` resolved to
 * this checkout (node_modules/typed-site links to it) as an installed package would be.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { initProject, type InitOptions } from '../../src/init';
import { outputRoot, repoRoot } from './paths';

/** A starter: its folder, its config file, and how to remove it. */
export interface StarterSite {
  dir: string;
  config: string;
  cleanup(): Promise<void>;
}

/** Makes the starter with `site init`'s options (folder aside). */
export async function createStarterSite(options: Omit<InitOptions, 'dir'> = {}): Promise<StarterSite> {
  await mkdir(outputRoot, { recursive: true });
  const parent = await mkdtemp(join(outputRoot, 'starter-'));
  const dir = join(parent, 'site');
  await initProject({ ...options, dir });
  await linkPackage(dir);
  return { dir, config: join(dir, 'site.config.yaml'), cleanup: () => rm(parent, { recursive: true, force: true }) };
}

/** Resolves `typed-site` in a project to this checkout, as `npm install` of the package would. */
export async function linkPackage(dir: string): Promise<void> {
  await mkdir(join(dir, 'node_modules'), { recursive: true });
  await symlink(repoRoot, join(dir, 'node_modules', 'typed-site'), 'dir');
}
