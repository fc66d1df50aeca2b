/**
 * The first two stages: the config, then everything the pages are made from (templates, islands,
 * stylesheet and public/, messages, the entries of the collections). Each input is kept with what it was loaded from and
 * loaded again only when that changed or a change of its files made the pipeline forget it.
 */
import { relative } from 'node:path';
import { adminIslandFile, adminIslandNames, adminTemplateNames } from '../admin-pages.js';
import type { DeploySettings } from '../config/deploy.js';
import { loadConfig, type ResolvedConfig } from '../config/load.js';
import type { HostTarget } from '../config/schema.js';
import { adminStylesheet, buildAssets, type Assets } from '../islands/assets.js';
import { consentFiles, needsConsent } from '../islands/consent.js';
import { bundleIslands, listIslands, searchIsland, type IslandBundle, type IslandRuntime } from '../islands/bundle.js';
import { engineFormIslands, formsImportedIn } from '../islands/form-islands.js';
import { listPageTemplates, loadTemplates } from '../render/templates.js';
import type { TemplateSet } from '../render/types.js';
import {
  entriesSourceKey,
  entryFolderOf,
  listEntries,
  loadEntryFolder,
  loadSiteMessages,
  messagesSourceKey,
  orderEntries,
  type Entry,
  type Messages,
} from './content-api.js';
import type { Runtime } from './runtime.js';
import { targetBaseProblem } from '../targets/index.js';
import { sameJson, type Loaded, type StageRun } from './stage.js';
import { sortScheduled, type ScheduledTranslation } from '../content/schedule.js';
import { hashParts, portableText } from '../cache/disk-cache.js';
import { generatorFingerprint } from '../cache/render-state.js';
import { markdownPoolThreshold } from '../content/markdown-cache.js';
import { folderSnapshots, snapshotProof } from './entry-snapshots.js';
import { loadedEntryOf, spillEntryHtml, storedEntry, type StoredEntry } from './entry-html.js';
import type { Spill } from '../spill.js';

/** What the input stages need of the pipeline's options. */
export interface InputOptions {
  drafts: boolean;
  /** Leave out entries dated after this ISO date, today in the config's time zone (undefined: every date). */
  publishedBy(config: ResolvedConfig): string | undefined;
  islandRuntime?: IslandRuntime;
  runtime: Runtime;
  /** Where the HTML of the entries loaded goes until a page reads it (a build that is not incremental; see spill.ts). */
  spill?: Spill;
}

/**
 * Stage 1: the config. `check` runs on it before any other work (and may throw to stop the run);
 * a config equal to `previous` is answered as `previous`, so what depends on it is not redone.
 */
export function loadSiteConfig(
  run: StageRun,
  file: string,
  options: {
    runtime: Runtime;
    previous?: ResolvedConfig;
    deploy?: DeploySettings;
    check?(config: ResolvedConfig): void;
    target?: HostTarget;
    socialImages?: boolean;
  },
): Promise<Loaded<ResolvedConfig>> {
  return run.load(
    'config',
    '',
    async (diagnostics) => {
      const read = await loadConfig(file, {
        listTemplates: listPageTemplates,
        parseYaml: options.runtime.parseYaml,
        deploy: options.deploy,
        diagnostics,
      });
      // `--target` wins over output.target; the pages, host files and functions all read the config's.
      // `--no-social-images` (and site dev, site check) likewise win over output.socialImages.
      const output = {
        ...read.output,
        ...(options.target ? { target: options.target } : {}),
        ...(options.socialImages === false ? { socialImages: false } : {}),
      };
      const loaded = sameJson(output, read.output) ? read : { ...read, output };
      const baseProblem = targetBaseProblem(loaded);
      if (baseProblem) throw baseProblem;
      options.check?.(loaded);
      return options.previous && sameJson(loaded, options.previous) ? options.previous : loaded;
    },
    'config',
  );
}

/** The inputs of a run; the esbuild steps still running while the routes are expanded. */
export interface Inputs {
  templates: Promise<Loaded<TemplateSet>>;
  islands: Promise<Loaded<IslandBundle>>;
  assets: Promise<Loaded<Assets>>;
  messages: Loaded<Messages>;
  /** The entries that loaded, in the order the site lists them. */
  entries: Entry[];
  /** The translations left out until their day, in the order they appear. */
  scheduled: ScheduledTranslation[];
  /**
   * When every entry folder has a snapshot (entry-snapshots.ts), kept from an earlier build or
   * taken by this one: a fingerprint of them all, equal only for the same folders with the same
   * bytes, loaded under the same config, date and generator. Undefined when one has none (it
   * failed, or changed within `settleMs`) or the entries were kept in memory (`site dev`).
   */
  entriesProof?: string;
  /**
   * The proof of each entry folder that has a snapshot ("<collection>/<slug>"; one changed within
   * `settleMs` has none): an entry with the same proof as in an earlier build has the same values.
   */
  entryProofs?: ReadonlyMap<string, string>;
}

/** Stage 2: starts the esbuild steps, and loads the messages and the entries. */
export async function loadInputs(run: StageRun, config: ResolvedConfig, options: InputOptions): Promise<Inputs> {
  const { dirs } = config;
  const esbuild = { run: options.runtime.esbuild };
  // The admin's screens are bundled with the site's templates and islands while the admin is on.
  const admin = config.admin.enabled;
  const templates = run.load(
    'templates',
    JSON.stringify([dirs.templates, admin]),
    async () =>
      loadTemplates(
        dirs.templates,
        [...(await listPageTemplates(dirs.templates)), ...(admin ? adminTemplateNames : [])],
        esbuild,
      ),
    'templates',
  );
  // The engine's islands: the admin's screens while the admin is on, the search while search is,
  // and the forms of typed-site/islands the templates import (a change of a template makes this
  // output stale, so the key need not name them) unless the site has an island of that name.
  const search = config.search.enabled;
  const engineIslands = Object.fromEntries([
    ...(admin ? adminIslandNames.map((name) => [name, adminIslandFile(name)]) : []),
    ...(search ? [searchIsland()] : []),
  ]);
  const islands = run.load(
    'islands',
    JSON.stringify([dirs.templates, options.islandRuntime, admin, search]),
    async () => {
      const [siteIslands, forms] = await Promise.all([listIslands(dirs.templates), formsImportedIn(dirs.templates)]);
      return bundleIslands(
        dirs.templates,
        siteIslands,
        options.islandRuntime,
        esbuild,
        { ...engineIslands, ...engineFormIslands(forms, siteIslands) },
        admin ? adminIslandNames : [],
      );
    },
    'islands',
  );
  const consent = needsConsent(config);
  const engineFiles = [
    ...(admin ? [adminStylesheet()] : []),
    ...(consent ? [consentFiles.script, consentFiles.stylesheet] : []),
  ];
  const assets = run.load(
    'assets',
    JSON.stringify([dirs.templates, dirs.public, admin, consent]),
    (diagnostics) => buildAssets(dirs, diagnostics, esbuild, engineFiles),
    'styles',
  );
  // Awaited by a later stage: a failure meanwhile is not unhandled.
  for (const step of [templates, islands, assets]) step.catch(() => undefined);
  const [messages, { entries, scheduled, entriesProof, entryProofs }] = await Promise.all([
    run.load(
      'messages',
      messagesSourceKey(config),
      (diagnostics) => loadSiteMessages(config, diagnostics, options.runtime.parseYaml),
      'messages',
    ),
    loadEntries(run, config, options),
  ]);
  return { templates, islands, assets, messages, entries, scheduled, entriesProof, entryProofs };
}

/**
 * Entry folders read ahead of their Markdown. Each holds its sources until its documents are
 * answered: at 10,000 posts, reading them all first held 165 MB of the main thread's heap at the
 * start of the stage.
 */
export const foldersInFlight = 1000;

/** Every entry of every collection, each kept on its own: an edit loads one entry again. */
async function loadEntries(
  run: StageRun,
  config: ResolvedConfig,
  options: InputOptions,
): Promise<Pick<Inputs, 'entries' | 'scheduled' | 'entriesProof' | 'entryProofs'>> {
  const publishedBy = options.publishedBy(config);
  const from = entriesSourceKey(config, options.drafts, publishedBy);
  const slugs = await run.load('entries', from, () => listEntries(config), 'entries');
  const current = new Set(slugs.value);
  options.runtime.entriesListed(current.size);
  run.forget((name) => name.startsWith('entry:') && !current.has(name.slice('entry:'.length)));
  const { markdown, frontMatterCache, entrySnapshots } = options.runtime;
  // An entry folder that loaded cleanly is kept by the stat of its files (or their bytes), under
  // what else its load read: the config's parts, the date, the generator's code, the working
  // folder (its files' names). The project's own folder is left out, so another checkout of it
  // keeps the entries too (entry-snapshots.ts).
  const snapshots = entrySnapshots && folderSnapshots<StoredEntry>(entrySnapshots, config.root);
  const scope =
    snapshots &&
    hashParts(generatorFingerprint(), portableText(from, config.root), relative(config.root, process.cwd()));
  const proofs = new Map<string, string>();
  const loadFolder = (slug: string) =>
    run.load(
      `entry:${slug}`,
      from,
      async (diagnostics) => {
        const folder = entryFolderOf(config, slug);
        // The folder is the config's content folder (in `from`) and the key.
        const key = scope && `${scope} ${slug}`;
        const kept = key && snapshots.read(key, folder);
        if (kept) {
          options.runtime.countEntryKept();
          proofs.set(slug, kept.proof);
          if (kept.restamp) {
            const stamps = snapshots.stamps(folder);
            if (stamps) snapshots.write(key, stamps, kept.value);
          }
          return loadedEntryOf(kept.value);
        }
        const stamps = snapshots?.stamps(folder);
        const entry = await loadEntryFolder(config, slug, diagnostics, {
          drafts: options.drafts,
          publishedBy,
          markdown,
          frontMatterCache,
        });
        if (key && stamps && diagnostics.list().length === 0) {
          snapshots.write(key, stamps, storedEntry(entry));
          // The proof the next build reads back with this snapshot: this build's entries proven alike.
          proofs.set(slug, snapshotProof(key, stamps));
        }
        return options.spill ? spillEntryHtml(entry, options.spill) : entry;
      },
      'entries',
    );
  // A folder's files and front matter are read at once, up to its Markdown: after the first
  // `markdownPoolThreshold` folders, a turn of the event loop lets their Markdown go to the worker
  // (batchMarkdown sends that many at once) while this thread reads the rest.
  // At most `foldersInFlight` folders are read and not yet loaded: their sources wait for the
  // Markdown, so a site of 10,000 posts does not hold all of them at once. Once half are answered,
  // the next half is read in one turn, and its Markdown is the worker's next job, queued behind
  // the one under way.
  const loads: ReturnType<typeof loadFolder>[] = [];
  const progress = options.runtime.progress.begin('load', current.size, 'entries');
  let inFlight = 0;
  let resumeReading: (() => void) | undefined;
  const settled = () => {
    progress.tick();
    inFlight--;
    if (resumeReading && inFlight <= foldersInFlight / 2) {
      resumeReading();
      resumeReading = undefined;
    }
  };
  let loaded: Awaited<ReturnType<typeof loadFolder>>[];
  try {
    for (const slug of current) {
      if (loads.length === markdownPoolThreshold) await new Promise((resume) => setImmediate(resume));
      if (inFlight >= foldersInFlight) await new Promise<void>((resume) => (resumeReading = resume));
      inFlight++;
      const load = loadFolder(slug);
      // Counted as it settles; awaited below, so one that fails meanwhile is not unhandled.
      void load.then(settled, settled);
      loads.push(load);
    }
    loaded = await Promise.all(loads);
  } finally {
    progress.end();
  }
  return {
    entries: orderEntries(
      config,
      loaded.flatMap((folder) => folder.value?.entry ?? []),
    ),
    scheduled: sortScheduled(loaded.flatMap((folder) => folder.value?.scheduled ?? [])),
    ...(scope && proofs.size === current.size
      ? { entriesProof: hashParts(scope, ...[...current].map((slug) => proofs.get(slug)!)) }
      : {}),
    ...(scope ? { entryProofs: proofs } : {}),
  };
}
