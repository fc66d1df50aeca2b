/**
 * `site init [dir] [--locales en,no] [--booking]`: a new project from the starter the package ships
 * (starters/default/): home, about, a contact page with the engine's form (and the pages a form sent
 * without JavaScript lands on), a blog with two posts, 404, its own README, in one language unless
 * more are asked for; `--booking` adds a page to book meetings with the built-in booking and its
 * config lines (starters/booking/). It writes only into a folder that is missing or empty (a `.git`
 * alone is allowed), and a failure removes what it wrote, never anything else.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { generatorRoot, isSourceCheckout } from './cache/disk-cache.js';
import { SiteError } from './errors.js';
import { editYaml, type YamlEdit } from './yaml-edit.js';
import { parse } from './yaml-package.js';

export interface InitOptions {
  /** The project's folder (created when missing). */
  dir: string;
  /** Language codes, the default first (default: ["en"]). */
  locales?: readonly string[];
  /** Add the page to book meetings and the built-in booking's config (starters/booking/). */
  booking?: boolean;
}

/** What `init` wrote. */
export interface InitReport {
  dir: string;
  /** The files written, relative to `dir`, sorted. */
  files: string[];
  locales: string[];
  /** The generator's package name, and how the project's package.json depends on it (see `dependencySpec`). */
  name: string;
  dependency: DependencySpec;
}

/** The package the new project depends on, as its package.json names it. */
export interface DependencySpec {
  /** `^0.1.0` from a registry, or `file:…` of the tarball or folder this package came from. */
  spec: string;
  source: 'registry' | 'tarball' | 'folder';
}

/** The starter's language: the one its copy is written in. */
const starterLocale = 'en';

/** Files of a folder that may be there before a project is made in it. */
const allowedBeforehand = new Set(['.git']);

/** Makes a new project in `options.dir`. */
export async function initProject(options: InitOptions): Promise<InitReport> {
  const dir = resolve(options.dir);
  const locales = [...new Set(options.locales?.length ? options.locales : [starterLocale])];
  for (const locale of locales) {
    if (!/^[a-z]{2,3}$/.test(locale)) {
      throw new SiteError({
        code: 'INIT_LOCALE',
        field: '--locales',
        message: `"${locale}" is not a language code`,
        hint: 'Give two- or three-letter codes separated by commas, the default first, such as --locales en,no.',
      });
    }
  }
  const exists = existsSync(dir);
  if (exists && !statSync(dir).isDirectory()) {
    throw new SiteError({
      code: 'INIT_NOT_EMPTY',
      file: relative(process.cwd(), dir) || '.',
      message: 'this is a file, not a folder',
      hint: 'Name a new folder, such as `site init my-site`.',
    });
  }
  const present = exists ? (await readdir(dir)).filter((name) => !allowedBeforehand.has(name)) : [];
  if (present.length) {
    throw new SiteError({
      code: 'INIT_NOT_EMPTY',
      file: relative(process.cwd(), dir) || '.',
      message: `the folder is not empty (it holds ${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''})`,
      hint: 'Name a new folder, such as `site init my-site`; init never writes over files it did not make.',
    });
  }
  const starter = join(generatorRoot(), 'starters', 'default');
  const dependency = dependencySpec(dir);
  // Everything is made in a folder beside the target and moved into place at the end, so a
  // failure leaves no half-made project behind.
  const staging = join(dir, '..', `.${basename(dir)}.site-init-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    await cp(starter, staging, { recursive: true });
    // npm leaves .gitignore files out of a published package, so the starter ships it without the dot.
    await rename(join(staging, 'gitignore'), join(staging, '.gitignore'));
    if (options.booking) await addBooking(staging);
    await writeLocales(staging, locales);
    await writeFile(join(staging, 'package.json'), `${JSON.stringify(projectPackage(dir, dependency), null, 2)}\n`);
    if (exists) {
      // An empty folder (or one with only .git) takes the files one by one.
      for (const name of await readdir(staging)) await rename(join(staging, name), join(dir, name));
    } else {
      // A new folder appears whole, in one rename.
      await mkdir(dirname(dir), { recursive: true });
      await rename(staging, dir);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return {
    dir,
    files: (await listFiles(dir)).filter((file) => !file.startsWith('.git/')),
    locales,
    name: ownManifest().name,
    dependency,
  };
}

/** The generator's package.json. */
function ownManifest(): { name: string; version: string } {
  return JSON.parse(readFileSync(join(generatorRoot(), 'package.json'), 'utf8')) as { name: string; version: string };
}

/**
 * How a project in `projectDir` depends on this package: as it was installed. From a registry,
 * the version range. From a tarball (`npx ./typed-site-0.1.0.tgz init`, or a project that ran
 * `npm install ./typed-site-0.1.0.tgz`) or a folder (a checkout of the repository), its `file:`
 * spec, relative to the new project as npm writes one: the version range would name a package no
 * registry holds, and `npm install` would fail with E404. npm's lockfile of the installation that
 * holds this package says where it came from (`resolved`).
 */
export function dependencySpec(projectDir: string): DependencySpec {
  const own = ownManifest();
  const fileSpec = (path: string) => `file:${relative(projectDir, path).split(sep).join('/') || '.'}`;
  if (isSourceCheckout()) return { spec: fileSpec(generatorRoot()), source: 'folder' };
  const modules = dirname(generatorRoot());
  const installRoot = basename(modules) === 'node_modules' ? dirname(modules) : undefined;
  const resolved =
    installRoot && lockedSource(installRoot, relative(installRoot, generatorRoot()).split(sep).join('/'));
  if (resolved?.startsWith('file:')) {
    const path = resolve(installRoot!, resolved.slice('file:'.length));
    return { spec: fileSpec(path), source: /\.(?:tgz|tar\.gz|tar)$/.test(path) ? 'tarball' : 'folder' };
  }
  return { spec: `^${own.version}`, source: 'registry' };
}

/** The `resolved` of a package in npm's lockfiles of an installation (`node_modules/.package-lock.json`, then `package-lock.json`). */
function lockedSource(installRoot: string, key: string): string | undefined {
  for (const file of [
    join(installRoot, 'node_modules', '.package-lock.json'),
    join(installRoot, 'package-lock.json'),
  ]) {
    try {
      const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages?: Record<string, { resolved?: string }> };
      const resolved = lock.packages?.[key]?.resolved;
      if (resolved) return resolved;
    } catch {
      // No such lockfile (another package manager, or none yet): the next, or a registry's range.
    }
  }
  return undefined;
}

/** The project's package.json: its scripts run the CLI of the version that made it. */
function projectPackage(dir: string, dependency: DependencySpec): Record<string, unknown> {
  const own = ownManifest();
  const name =
    basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+|-+$/g, '') || 'my-site';
  return {
    name,
    private: true,
    type: 'module',
    scripts: { dev: 'site dev', build: 'site build', check: 'site check', serve: 'site serve' },
    dependencies: { [own.name]: dependency.spec },
    devDependencies: { '@types/react': '^19.0.0' },
    // npm 11 runs a dependency's install script only when the project allows it: esbuild's checks
    // that its binary for this platform is there.
    allowScripts: { esbuild: true },
  };
}

/**
 * Adds the booking of meetings (starters/booking/): its page's template and copy, its routes after
 * the contact form's, and the `booking:` and `company:` blocks at the end of the config. The
 * fragment there is the one a site made without `--booking` copies by hand (its README says so).
 */
async function addBooking(root: string): Promise<void> {
  const booking = join(generatorRoot(), 'starters', 'booking');
  for (const folder of ['templates', 'content'])
    await cp(join(booking, folder), join(root, folder), { recursive: true });
  const fragment = await readFile(join(booking, 'site.config.yaml'), 'utf8');
  const routes = /^routes:\n((?: {2}.*\n)+)/m.exec(fragment);
  const configFile = join(root, 'site.config.yaml');
  const config = await readFile(configFile, 'utf8');
  const after = /^ {2}- \{ path: \/contact\/failed, .*\n/m.exec(config);
  if (!routes || !after)
    throw new Error(
      "starters/booking/site.config.yaml or the starter's config lost the lines `site init --booking` joins (its routes:, the /contact/failed route)",
    );
  const at = after.index + after[0].length;
  const blocks = fragment.slice(routes.index + routes[0].length).trimStart();
  await writeFile(configFile, `${config.slice(0, at)}${routes[1]}${config.slice(at).trimEnd()}\n\n${blocks}`);
}

/**
 * Writes the `locales:` of the config and a copy of the starter's copy for each further language,
 * to translate (the build checks that every page exists in every language).
 */
async function writeLocales(root: string, locales: readonly string[]): Promise<void> {
  const configFile = join(root, 'site.config.yaml');
  const config = await readFile(configFile, 'utf8');
  const edits: YamlEdit[] = [
    {
      op: 'set',
      path: ['locales'],
      value: Object.fromEntries(locales.map((locale, index) => [locale, localeFields(locale, index === 0)])),
    },
    { op: 'set', path: ['site', 'defaultLocale'], value: locales[0]! },
    ...localizeAboutPath(config, locales),
  ];
  await writeFile(configFile, editYaml(config, edits));
  for (const locale of locales) {
    if (locale === starterLocale) continue;
    for (const file of await listFiles(join(root, 'content'))) {
      const match = /^(.*\/)?en\.(yaml|md)$/.exec(file);
      if (!match) continue;
      await cp(join(root, 'content', file), join(root, 'content', `${match[1] ?? ''}${locale}.${match[2]}`));
    }
  }
  if (!locales.includes(starterLocale)) {
    for (const file of await listFiles(join(root, 'content'))) {
      if (/(^|\/)en\.(yaml|md)$/.test(file)) await rm(join(root, 'content', file));
    }
  }
}

/** "About us" as a URL segment in the languages a new site most often adds (a starter's example; the site owner edits it). */
const aboutSegments: Readonly<Record<string, string>> = {
  no: 'om-oss',
  nb: 'om-oss',
  nn: 'om-oss',
  sv: 'om-oss',
  da: 'om-os',
  de: 'ueber-uns',
  nl: 'over-ons',
  fr: 'a-propos',
  es: 'sobre-nosotros',
  it: 'chi-siamo',
  pt: 'sobre-nos',
  fi: 'meista',
  pl: 'o-nas',
};

/**
 * Shows localized paths in the starter: the about route gives its path in each language, the
 * further ones in the word the table knows (`path: { en: /about, no: /om-oss }` makes it
 * /no/om-oss in Norwegian); a language the table does not know keeps /about.
 */
function localizeAboutPath(config: string, locales: readonly string[]): YamlEdit[] {
  const paths = locales
    .slice(1)
    .filter((locale) => aboutSegments[locale])
    .map((locale) => [locale, `/${aboutSegments[locale]}`]);
  const routes = (parse(config) as { routes?: { path?: unknown }[] }).routes ?? [];
  const index = routes.findIndex((route) => route.path === '/about');
  if (!paths.length || index === -1) return [];
  return [
    { op: 'set', path: ['routes', index, 'path'], value: Object.fromEntries([[locales[0]!, '/about'], ...paths]) },
  ];
}

/** One language of the config, its names from the runtime's own language data. */
function localeFields(locale: string, isDefault: boolean): Record<string, string> {
  const full = new Intl.Locale(locale).maximize();
  const region = full.region ?? locale.toUpperCase();
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  const label = name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  return {
    label,
    short: locale.toUpperCase(),
    prefix: isDefault ? '' : `/${locale}`,
    hreflang: locale,
    htmlLang: locale,
    ogLocale: `${full.language}_${region}`,
    intl: `${full.language}-${region}`,
  };
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory()) files.push(...(await listFiles(join(dir, entry.name), `${path}/`)));
    else files.push(path);
  }
  return files.sort();
}
