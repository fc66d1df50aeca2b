/**
 * `/api/admin/posts…`: the blog editor's API. Posts are addressed by slug and locale; a read gives
 * the front matter, the Markdown body and a version (also the ETag); a change must send that
 * version in If-Match (409 with the current text when it is stale), is checked with the build's
 * own code (the errors `site check` reports, 422) before anything is written, is written
 * atomically and one at a time per file, and is logged. A rename moves a post's folder, every
 * language at once, and adds redirects from its old addresses (post-rename.ts).
 */
import { placeUses } from '../content/component-uses.js';
import type { ComponentUse } from '../content/directives.js';
import { lstatSync } from 'node:fs';
import { lstat, readdir, readFile, rename } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { collectionNamed, sourcesOf } from '../config/sources.js';
import {
  checkEntryText,
  completeTranslation,
  entrySlugPattern,
  isPublished,
  listEntrySlugs,
  type EntryFrontMatter,
  type EntryTranslation,
} from '../content/collections.js';
import { scheduledAt, todayIn } from '../content/schedule.js';
import { readEntryImage, type EntryImage } from '../content/images.js';
import { resolveFieldValues } from '../content/entry-fields.js';
import { locateContentField } from '../content/field-position.js';
import { copyValuesOf, fillPlaceholders } from '../content/messages.js';
import { createMarkdownRenderer, type MarkdownRenderer } from '../content/markdown-cache.js';
import { markdownFailure, markdownPluginsOf } from '../content/markdown.js';
import { SiteError } from '../errors.js';
import { createWorkerPool, JobOverBudget, type WorkerPool } from '../parallel/pool.js';
import { pickTranslation } from '../routes/fallback.js';
import type { Build } from '../pipeline/result-stage.js';
import { devUser, type AdminRequest, type AdminRoute } from './api.js';
import type { AuditLog } from './audit-log.js';
import {
  createPostText,
  editPost,
  FrontMatterEditError,
  readFrontMatter,
  splitPost,
  type FrontMatterValue,
} from './front-matter-edit.js';
import {
  isOutdatedSince,
  readTranslationRecords,
  recordTranslation,
  translationRecordsFile,
  translationState,
} from './translations.js';
import { serialiseWrites } from './write-queue.js';
import { createPostListCache, pageOfPosts, postListQueryOf, type ListedFile, type ListedPost } from './post-list.js';
import { sendJson } from './http.js';
import { writeFileAtomic } from '../atomic-write.js';
import { checkSiteWithEdit } from './site-check.js';
import { commitMessage, publishToGit, type GitOutcome } from './git-publish.js';
import { ConfigEditError, editConfigText } from './config-edit.js';
import { moveFolder, renameRedirects } from './post-rename.js';
import { entrySummary, historyRoutes, projectPath, type History } from './history.js';
import {
  answerStale,
  holdChange,
  isPublicEntry,
  mustHold,
  pendingOf,
  reviewRoutes,
  wholeEntry,
  type Review,
} from './review.js';
import { fileDiff } from './text-diff.js';
import { entryChangesInWords } from './content-words.js';
import type { TranslationOrigins } from './translation-origins.js';
import {
  deletePostFile,
  PostAddressError,
  readPostFile,
  resolvePost,
  versionOf,
  type PostAddress,
} from './post-files.js';

/** What a save did to the site: nothing yet (dev: the watcher rebuilds), or a rebuild's outcome. */
export type SaveOutcome =
  | { rebuilt: false }
  | { rebuilt: true; ok: true; ms: number }
  | { rebuilt: true; ok: false; errors: ReturnType<typeof describeError>[] };

/** Options of `createPostRoutes`. */
export interface PostRoutesOptions {
  /** The config the site is built from now. */
  config(): ResolvedConfig | undefined;
  /** The last good build: a change is checked against the whole site it makes before it is written. */
  lastBuild?(): Build | undefined;
  /** The collection the editor edits (default "blog"). */
  collection?: string;
  audit: AuditLog;
  /** Where each save keeps the text it replaced (history.ts). */
  history?: History;
  /** Where editors' changes of entries on the site wait for an admin when `admin.review` is on (review.ts). */
  review?: Review;
  /** The status of translations never saved in the admin: from git, else the baseline (translation-origins.ts). */
  origins?: TranslationOrigins;
  /** Today's ISO date in the site's time zone (scheduled posts); default the clock's date there. */
  today?: (timeZone: string) => string;
  /** Runs after files were written or deleted (serve: the in-process rebuild). */
  afterWrite?(file: string | readonly string[]): Promise<SaveOutcome>;
  /** Told of each save, deletion and rename (the event stream). */
  notify?(name: 'saved' | 'deleted' | 'renamed', data: Record<string, unknown>): void;
  /** Milliseconds a post's Markdown may take to render before a save is refused (default `markdownBudgetMs`). */
  markdownBudgetMs?: number;
}

/**
 * How long the admin waits for a post's Markdown by default. The slowest documents within the
 * default `markdown:` limits (256 KB of links or emphasis marks) took 2 to 3.5 s on 2 cores.
 */
export const markdownBudgetMs = 5_000;

/** The worker thread the admin renders Markdown in: one for every route, started on first use. */
let markdownPool: WorkerPool | undefined;

/**
 * The admin's Markdown renderer: the build's cache, and every miss rendered in a worker thread
 * within `budgetMs`, so that a document that makes the parser slow never holds up the server's
 * main thread (which also serves the site); past the budget the worker is ended.
 */
export function createAdminMarkdownRenderer(budgetMs = markdownBudgetMs): MarkdownRenderer {
  return createMarkdownRenderer({ pool: () => (markdownPool ??= createWorkerPool(1)), poolThreshold: 0, budgetMs });
}

/** A problem as the API gives it: `site check`'s code, message and position, and the form field. */
export function describeError(error: SiteError) {
  return {
    code: error.code,
    message: error.message,
    field: error.field ?? null,
    line: error.line ?? null,
    column: error.column ?? null,
    hint: error.hint,
    file: error.file ?? null,
  };
}

/** A front-matter edit refused (front-matter-edit.ts) as the API gives a problem: at its field, nothing written. */
export function frontMatterProblem(error: FrontMatterEditError, display: string) {
  return {
    code: 'FRONT_MATTER',
    message: error.message,
    field: error.field,
    line: null,
    column: null,
    hint: 'Nothing was written.',
    file: display,
  };
}

/** A post's text after the build's checks: its problems, or its front matter, rendered Markdown and image. */
export type CheckedPost =
  | { errors: SiteError[] }
  | {
      errors: [];
      data: EntryFrontMatter;
      html: string;
      words: number;
      image?: EntryImage;
      components?: ComponentUse[];
      /** The declared fields as the build resolves them (Markdown as HTML, images read). */
      fields: EntryTranslation['fields'];
    };

/** The line of a front matter field in a post's text (1-based), if it is there. */
function fieldLine(text: string, field: string): number | undefined {
  const index = text.split('\n').findIndex((line) => line.startsWith(`${field}:`));
  return index === -1 ? undefined : index + 1;
}

/**
 * The build's checks of a post's new text: front matter schema, Markdown limits, Markdown parse
 * (with `markdown`: see createAdminMarkdownRenderer), and its image, read from the post's folder
 * `folder` as the build reads it (the errors `site check` reports), so a save never writes a post
 * the next build refuses.
 */
export async function checkPost(
  config: ResolvedConfig,
  collection: string,
  display: string,
  text: string,
  folder: string,
  markdown: MarkdownRenderer,
): Promise<CheckedPost> {
  const checked = checkEntryText(config, collection, text, display);
  if (checked.errors.length || !checked.data) return { errors: checked.errors };
  let image: EntryImage | undefined;
  if (checked.data.image !== undefined) {
    const found = await readEntryImage(folder, checked.data.image, checked.data.imageAlt, basename(display, '.md'));
    if ('message' in found)
      return {
        errors: [
          new SiteError({
            code: 'ENTRY_IMAGE',
            message: found.message,
            hint: found.hint,
            field: found.field,
            file: display,
            line: fieldLine(text, found.field in checked.data ? found.field : 'image'),
          }),
        ],
      };
    image = found;
  }
  const line = text.slice(0, text.length - checked.body.length).split('\n').length;
  // As the build shows the post: with the site's `{name}` placeholders filled (copyValuesOf).
  const values = copyValuesOf(config);
  let outcome;
  try {
    // Through the site's remark and rehype plugins, imported in the admin's worker thread.
    [outcome] = await markdown.renderAll([fillPlaceholders(checked.body, values)], markdownPluginsOf(config));
  } catch (error) {
    if (!(error instanceof JobOverBudget)) throw error;
    const message = `the Markdown took more than the ${error.budgetMs / 1000} s the admin allows for rendering a post`;
    return {
      errors: [
        new SiteError({
          code: 'MARKDOWN_LIMIT',
          message,
          hint: 'Split long paragraphs, or use fewer links and emphasis marks ([ ] * _ ~) in one: the parser slows down with their square.',
          file: display,
          line,
          field: 'body',
        }),
      ],
    };
  }
  if (!outcome || 'error' in outcome) {
    const failure = markdownFailure(outcome ?? { error: 'the Markdown could not be rendered' }, display, line);
    return { errors: [new SiteError({ ...failure, field: 'body' })] };
  }
  const data = {
    ...checked.data,
    title: fillPlaceholders(checked.data.title, values),
    description: fillPlaceholders(checked.data.description, values),
  };
  const spec = config.collections[collection]!;
  const { fields } = completeTranslation(spec, data, '', display, { html: '', words: 0 });
  const resolved = await resolveFieldValues(
    spec,
    fields,
    { folder, locale: basename(display, '.md') },
    markdown,
    markdownPluginsOf(config),
  );
  if (resolved.problems.length)
    return {
      errors: resolved.problems.map(
        (problem) =>
          new SiteError({ code: 'ENTRY_FIELD', ...problem, ...locateContentField(display, problem.field, text) }),
      ),
    };
  return {
    errors: [],
    data,
    html: outcome.html,
    words: outcome.words,
    fields,
    ...(image ? { image } : {}),
    // At their lines in the file: the site check (site-check.ts) refuses an unknown component or attribute there.
    ...(outcome.components ? { components: placeUses(outcome.components, line) } : {}),
  };
}

/** The text a post would have after an edit: the file's text edited in place, or a new file. */
export function postText(
  existing: string | undefined,
  frontMatter: Record<string, FrontMatterValue | undefined>,
  body: string,
): string {
  if (existing !== undefined) return editPost(existing, frontMatter, body);
  const ordered: Record<string, FrontMatterValue | undefined> = {};
  for (const key of [...basicFields, ...Object.keys(frontMatter).filter((key) => !basicFields.includes(key))]) {
    if (frontMatter[key] !== undefined) ordered[key] = frontMatter[key];
  }
  return createPostText(ordered, body);
}

/** The order the fields of a new post are written in: the ones every entry has, then the collection's. */
const basicFields = ['title', 'description', 'date', 'updated', 'image', 'draft'];

function version(request: AdminRequest['request']): string | undefined {
  const value = request.headers['if-match'];
  return typeof value === 'string'
    ? value
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1')
    : undefined;
}

/** Front matter and body from a request body; throws a 400 message. */
export function postFromBody(fields: Record<string, unknown>): {
  frontMatter: Record<string, FrontMatterValue | undefined>;
  body: string;
} {
  const { frontMatter, body } = fields;
  if (typeof body !== 'string') throw new PostAddressError('"body" must be the Markdown text');
  if (typeof frontMatter !== 'object' || frontMatter === null || Array.isArray(frontMatter))
    throw new PostAddressError('"frontMatter" must be an object of fields');
  const clean: Record<string, FrontMatterValue | undefined> = {};
  for (const [key, value] of Object.entries(frontMatter)) {
    if (!/^[A-Za-z_][\w-]{0,63}$/.test(key)) throw new PostAddressError(`"${key}" is not a field name`);
    if (value === null || value === undefined || value === '') clean[key] = undefined;
    else if (isFrontMatterValue(value)) clean[key] = value;
    else throw new PostAddressError(`"${key}" must be text, a number, true/false, or a list or object of them`);
  }
  return { frontMatter: clean, body: body.replace(/\r\n?/g, '\n') };
}

/** Text, a number, true/false, or a list or object of them (a list or object field), nested no deeper than a form makes them. */
function isFrontMatterValue(value: unknown, depth = 0): value is FrontMatterValue {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
  if (depth >= 4 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).every((each) => isFrontMatterValue(each, depth + 1));
}

/** The request body as `parse` reads it; undefined, answered 400, when it is not what the route takes. */
async function readBody<T>(
  context: AdminRequest,
  parse: (fields: Record<string, unknown>) => T,
): Promise<T | undefined> {
  try {
    return parse(await context.body());
  } catch (error) {
    if (!(error instanceof PostAddressError)) throw error;
    sendJson(context.response, 400, { error: 'invalid_body', message: error.message });
    return undefined;
  }
}

/** The slug and locale a request body names (each may be left out); throws a 400 message when one is not text. */
export function addressFromBody(fields: Record<string, unknown>): { slug: string; locale: string } {
  const text = (name: 'slug' | 'locale') => {
    const value = fields[name] ?? '';
    if (typeof value !== 'string') throw new PostAddressError(`"${name}" must be text`);
    return value;
  };
  return { slug: text('slug'), locale: text('locale') };
}

/** Creates the routes of the blog editor. */
/** A collection's routes, and `warm`: reads its list now (every file), so that the first request finds it kept. */
export type PostRoutes = AdminRoute[] & { warm(): Promise<void> };

export function createPostRoutes(options: PostRoutesOptions): PostRoutes {
  const collection = options.collection ?? 'blog';
  const markdown = createAdminMarkdownRenderer(options.markdownBudgetMs);
  const today = options.today ?? ((timeZone: string) => todayIn(timeZone));

  /** When a post's translation appears by itself, for one dated after today that is no draft: `{ at, timeZone }`. */
  const scheduleOf = (config: ResolvedConfig, data: Record<string, unknown>) => {
    const { timeZone } = config.site;
    const at =
      data.draft !== true && typeof data.date === 'string'
        ? scheduledAt(data.date, timeZone, today(timeZone))
        : undefined;
    return at === undefined ? {} : { scheduled: { at, timeZone } };
  };
  /** What a change of one translation writes: its file and its folder's translation records. */
  const entryFiles = (target: PostAddress) => [target.file, translationRecordsFile(dirname(target.file))];

  const configOf = (response: AdminRequest['response']): ResolvedConfig | undefined => {
    const config = options.config();
    if (!config || !collectionNamed(config, collection)) {
      sendJson(response, 503, {
        error: 'no_collection',
        message: config
          ? `the config declares no collection "${collection}"`
          : 'the site has not built yet: fix the errors site dev shows',
      });
      return undefined;
    }
    return config;
  };

  async function address(
    context: AdminRequest,
    slug: string,
    locale: string,
    encoded = false,
  ): Promise<PostAddress | undefined> {
    const config = configOf(context.response);
    if (!config) return undefined;
    try {
      const decode = (part: string) => {
        try {
          return encoded ? decodeURIComponent(part) : part;
        } catch {
          throw new PostAddressError(`"${part}" is not a valid slug`);
        }
      };
      return await resolvePost(config, collection, decode(slug), decode(locale));
    } catch (error) {
      if (!(error instanceof PostAddressError)) throw error;
      sendJson(context.response, 400, { error: 'invalid_address', message: error.message });
      return undefined;
    }
  }

  /** The post of a route's path and the version its If-Match names; answered (400, 428) and undefined when either is missing. */
  async function addressedVersion(
    context: AdminRequest,
    doing: string,
  ): Promise<{ target: PostAddress; expected: string } | undefined> {
    const target = await address(context, context.params[0]!, context.params[1]!, true);
    if (!target) return undefined;
    const expected = version(context.request);
    if (!expected) {
      sendJson(context.response, 428, {
        error: 'if_match_required',
        message: `send the version you are ${doing} in If-Match`,
      });
      return undefined;
    }
    return { target, expected };
  }

  /** The default language's file of a translation (undefined for the default language itself): its text ('' when missing) and name. */
  const sourceOf = async (config: ResolvedConfig, target: PostAddress) => {
    if (target.locale === config.site.defaultLocale) return undefined;
    const source = await resolvePost(config, collection, target.slug, config.site.defaultLocale).catch(() => undefined);
    return (
      source && { file: source.file, text: (await readPostFile(source.file))?.text ?? '', display: source.display }
    );
  };

  const current = (config: ResolvedConfig, text: string, versionId: string) => {
    const frontMatter = readFrontMatter(text);
    return { frontMatter, body: splitPost(text).body, version: versionId, ...scheduleOf(config, frontMatter) };
  };

  /** The errors of the whole site with a post's translation in `target` replaced, its links placed in `text` (none when there is no build to check against). */
  function checkSite(
    target: PostAddress,
    translation: Parameters<typeof checkSiteWithEdit>[1]['translation'],
    text?: string,
  ) {
    const build = options.lastBuild?.();
    return build
      ? checkSiteWithEdit(build, { collection, slug: target.slug, locale: target.locale, translation, text }).errors
      : [];
  }

  /**
   * Commits (and pushes) a saved or deleted file when the config's `publish.git.commit` says so,
   * and logs the outcome; undefined when publishing to git is off. The user of `site dev` commits
   * as git's own configured identity, an account of `site serve` as its e-mail address.
   */
  async function publish(
    context: AdminRequest,
    config: ResolvedConfig,
    target: PostAddress,
    action: 'add' | 'update' | 'delete',
    also: readonly string[] = [],
  ): Promise<GitOutcome | undefined> {
    const settings = config.publish.git;
    if (!settings.commit) return undefined;
    const email = context.session.email;
    const author = email === devUser.email ? undefined : { name: email.slice(0, email.indexOf('@')), email };
    const outcome = await publishToGit(
      {
        root: config.root,
        file: [target.file, ...also],
        author,
        message: commitMessage(collection, action, target.slug, target.locale),
      },
      settings,
    );
    await options.audit.append({
      user: email,
      collection,
      action: outcome.error ? 'git-failed' : 'git-commit',
      slug: target.slug,
      locale: target.locale,
      commit: outcome.commit ?? null,
      pushed: outcome.pushed,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    return outcome;
  }

  /** Checks, writes, logs and rebuilds; answers 422 with the build's errors when the check fails. */
  async function save(
    context: AdminRequest,
    config: ResolvedConfig,
    target: PostAddress,
    text: string,
    before: string | null,
    action: string,
    status: number,
    previous?: string,
    detail: Record<string, unknown> = {},
  ) {
    const checked = await checkPost(config, collection, target.display, text, dirname(target.file), markdown);
    if (!('data' in checked)) return sendJson(context.response, 422, { errors: checked.errors.map(describeError) });
    const shown = !checked.data.draft && isPublished(checked.data.date, today(config.site.timeZone));
    const siteErrors = checkSite(
      target,
      shown
        ? {
            ...completeTranslation(
              config.collections[collection]!,
              checked.data,
              target.locale,
              target.display,
              checked,
            ),
            fields: checked.fields,
          }
        : undefined,
      text,
    );
    if (siteErrors.length) return sendJson(context.response, 422, { errors: siteErrors.map(describeError) });
    // Held when the site shows the translation before or after (a new one, a draft made public, a date moved to the past).
    if (options.review && mustHold(config, context, isPublicEntry(previous) || isPublicEntry(text)))
      return holdChange(
        options.review,
        context,
        { collection, slug: target.slug, locale: target.locale, base: before ?? '' },
        text,
      );
    await writeFileAtomic(target.file, text);
    const after = versionOf(text);
    await options.audit.append({
      user: context.session.email,
      collection,
      action,
      slug: target.slug,
      locale: target.locale,
      oldHash: before,
      newHash: after,
      ...detail,
    });
    if (previous !== undefined)
      await options.history?.record('entry', itemOf(target), context.session.email, entrySummary(previous, text), {
        [projectPath(config.root, target.file)]: previous,
      });
    // A translation records the default language's text it was made from (translations.ts).
    const source = await sourceOf(config, target);
    const records = source
      ? [await recordTranslation(dirname(target.file), target.locale, source.text, Date.now())]
      : [];
    const outcome = (await options.afterWrite?.(target.file)) ?? { rebuilt: false };
    const git = await publish(context, config, target, before === null ? 'add' : 'update', records);
    options.notify?.('saved', {
      slug: target.slug,
      locale: target.locale,
      user: context.session.email,
      version: after,
      ...outcome,
    });
    sendJson(
      context.response,
      status,
      { version: after, ...scheduleOf(config, checked.data), ...outcome, ...(git ? { git } : {}) },
      { etag: `"${after}"` },
    );
  }

  const listCache = createPostListCache();

  /**
   * Every post as the list shows it. Callers that ask while a listing for the same config and day
   * is under way share it: the first list after a start (every file read) is the one the server
   * began when it started listening (`warm`), not a second one.
   */
  let listing: { config: ResolvedConfig; day: string; changes: number; posts: Promise<ListedPost[]> } | undefined;
  function listedPosts(config: ResolvedConfig): Promise<ListedPost[]> {
    const day = today(config.site.timeZone);
    // Shared only while the collection's watcher has named no change since it began (a save made meanwhile is in the next one).
    const folder = sourcesOf(config).collection(collection);
    if (lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) void listCache.watch(folder);
    const changes = listCache.changes(folder);
    if (listing?.config === config && listing.day === day && changes !== undefined && listing.changes === changes)
      return listing.posts;
    const posts = readList(config, day);
    const current = { config, day, changes: changes ?? -1, posts };
    listing = current;
    const done = () => {
      if (listing === current) listing = undefined;
    };
    posts.then(done, done);
    return posts;
  }

  async function readList(config: ResolvedConfig, day: string): Promise<ListedPost[]> {
    {
      const spec = config.collections[collection]!;
      const termField = spec.taxonomy?.field;
      const sources = sourcesOf(config);
      // The slugs are the collection folder's real folders (a symbolic link is none), and each
      // file is read only when it is a plain file: no path leaves content/, as resolvePost checks.
      const folderInfo = await lstat(sources.collection(collection)).catch(() => undefined);
      if (folderInfo?.isDirectory()) await listCache.watch(sources.collection(collection));
      const slugs = folderInfo?.isDirectory()
        ? (await listEntrySlugs(config, collection)).filter((slug) => entrySlugPattern.test(slug) && slug.length <= 200)
        : [];
      // The changes waiting for review, read once: `slug/locale` of each.
      const pending =
        options.review && config.admin.review
          ? new Set(
              (await (await options.review.source.get()).listPendingChanges())
                .filter((change) => change.collection === collection)
                .map((change) => `${change.slug}/${change.locale}`),
            )
          : undefined;

      // Whether a translation without a record is older than its source: git's HEAD asked once for the list.
      const outdatedByOrigin = options.origins?.forList(config);
      // A post the list showed before, unchanged since (the watcher says so), for this config and day.
      const collectionFolder = sources.collection(collection);
      const memoKey = [config, day];
      const waiting = (slug: string) =>
        pending !== undefined && config!.localeIds.some((locale) => pending.has(`${slug}/${locale}`));
      const keptOf = (slug: string) => !waiting(slug) && listCache.keptPost(join(collectionFolder, slug), memoKey);
      async function postOf(slug: string): Promise<ListedPost | undefined> {
        const folder = join(collectionFolder, slug);
        const since = listCache.changes(collectionFolder) ?? 0;
        const post = await readListedPost(slug);
        if (post && !waiting(slug)) listCache.keepPost(folder, memoKey, post, since);
        return post;
      }

      async function readListedPost(slug: string): Promise<ListedPost | undefined> {
        const translations: ListedPost['translations'] = {};
        const shown: Record<string, true> = {};
        let source: ListedFile | undefined;
        const files = await Promise.all(
          config!.localeIds.map((locale) => listCache.file(sources.entry(collection, slug, locale))),
        );
        config!.localeIds.forEach((locale, index) => {
          const file = files[index];
          if (!file) return;
          const { data } = file;
          const date = typeof data.date === 'string' ? data.date : '';
          const status = data.draft === true ? 'draft' : !isPublished(date, day) ? 'scheduled' : 'published';
          if (status === 'published') shown[locale] = true;
          if (locale === config!.site.defaultLocale) source = file;
          translations[locale] = {
            title: data.title ?? null,
            date,
            category: termField ? (data[termField] ?? null) : null,
            status,
            version: file.version,
            ...(status === 'scheduled' ? scheduleOf(config!, data) : {}),
            ...(pending?.has(`${slug}/${locale}`) ? { pending: true } : {}),
          };
        });
        if (!Object.keys(translations).length) return undefined;
        // A translation older than the default language's text (translations.ts).
        if (source && Object.keys(translations).some((locale) => locale !== config!.site.defaultLocale)) {
          const sourceFile = sources.entry(collection, slug, config!.site.defaultLocale);
          const records = await listCache.records(dirname(sourceFile));
          for (const locale of Object.keys(translations)) {
            if (locale === config!.site.defaultLocale) continue;
            // The admin's record decides; without one, the files' history (git, else the first
            // start's baseline), compared by the source's blob id: its file is not read again.
            const outdated = records[locale]
              ? isOutdatedSince(records[locale], source.version)
              : !!outdatedByOrigin &&
                (await outdatedByOrigin(sources.entry(collection, slug, locale), sourceFile, source.blob));
            if (outdated) translations[locale]!.outdated = true;
          }
        }
        for (const locale of config!.localeIds) {
          if (translations[locale]) continue;
          // What a page of this locale shows instead: the site's own fallback choice.
          const shownIn = pickTranslation(shown, locale, { localeIds: config!.localeIds, chains: spec.fallback });
          // A new translation an editor made may be waiting for review.
          translations[locale] = {
            status: 'missing',
            shownIn: shownIn ?? null,
            ...(pending?.has(`${slug}/${locale}`) ? { pending: true } : {}),
          };
        }
        return { slug, translations };
      }

      // A few posts at a time: enough for the disk to answer in parallel, few enough that the
      // server's other work (a page's file, a sign-in's hash: the same threads) is not queued
      // behind thousands of reads.
      // The posts kept since the last list are taken at once (no await each: tens of thousands).
      const listed: (ListedPost | undefined)[] = slugs.map((slug) => keptOf(slug) || undefined);
      const unread = slugs.flatMap((_slug, index) => (listed[index] ? [] : [index]));
      let next = 0;
      const reader = async () => {
        while (next < unread.length) {
          const index = unread[next++]!;
          listed[index] = await postOf(slugs[index]!);
        }
      };
      await Promise.all(Array.from({ length: 16 }, reader));
      return listed.filter((post): post is ListedPost => post !== undefined);
    }
  }

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^posts$/,
    role: 'editor',
    async handle({ request, response }) {
      const config = configOf(response);
      if (!config) return;
      const posts = await listedPosts(config);
      const url = new URL(request.url ?? '/', 'http://admin');
      const query = postListQueryOf(url.searchParams);
      if (!query) return sendJson(response, 200, posts);
      const page = pageOfPosts(posts, query);
      // A collection's list (/api/admin/collections/<id>) names them entries; the blog's, posts.
      const named = url.pathname.includes('/api/admin/collections/') ? 'entries' : 'posts';
      sendJson(response, 200, { [named]: page.posts, total: page.total });
    },
  };

  const read: AdminRoute = {
    method: 'GET',
    pattern: /^posts\/([^/]+)\/([^/]+)$/,
    role: 'editor',
    async handle(context) {
      const target = await address(context, context.params[0]!, context.params[1]!, true);
      if (!target) return;
      const file = await readPostFile(target.file);
      if (!file)
        return sendJson(context.response, 404, {
          error: 'not_found',
          message: `no ${target.locale} version of "${target.slug}"`,
        });
      const config = options.config()!;
      const source = await sourceOf(config, target);
      const state =
        source &&
        (await translationState({
          config,
          record: (await readTranslationRecords(dirname(target.file)))[target.locale],
          translationFile: target.file,
          sourceFile: source.file,
          sourceText: source.text,
          display: source.display,
          origins: options.origins,
        }));
      const changes =
        state && source && state.status.outdated
          ? { changes: await entryChangesInWords(config, collection, state.base, source.text) }
          : {};
      const translation = state && { ...state.status, ...changes, sourceLocale: config.site.defaultLocale };
      const pending =
        options.review && config.admin.review
          ? { pending: await pendingOf(options.review, { collection, slug: target.slug, locale: target.locale }) }
          : {};
      sendJson(
        context.response,
        200,
        { ...current(config, file.text, file.version), ...(translation ? { translation } : {}), ...pending },
        { etag: `"${file.version}"` },
      );
    },
  };

  const update: AdminRoute = {
    method: 'PUT',
    pattern: read.pattern,
    role: 'editor',
    async handle(context) {
      const addressed = await addressedVersion(context, 'editing');
      if (!addressed) return;
      const { target, expected } = addressed;
      const post = await readBody(context, postFromBody);
      if (!post) return;
      const config = options.config()!;
      await serialiseWrites(entryFiles(target), async () => {
        const file = await readPostFile(target.file);
        if (!file) return sendJson(context.response, 404, { error: 'not_found' });
        if (file.version !== expected)
          return sendJson(
            context.response,
            409,
            { error: 'stale', current: current(config, file.text, file.version) },
            { etag: `"${file.version}"` },
          );
        let text: string;
        try {
          text = editPost(file.text, post.frontMatter, post.body);
        } catch (error) {
          if (!(error instanceof FrontMatterEditError)) throw error;
          return sendJson(context.response, 422, { errors: [frontMatterProblem(error, target.display)] });
        }
        await save(context, config, target, text, file.version, 'update', 200, file.text);
      });
    },
  };

  const create: AdminRoute = {
    method: 'POST',
    pattern: /^posts$/,
    role: 'editor',
    async handle(context) {
      const parsed = await readBody(context, (fields) => ({
        post: postFromBody(fields),
        named: addressFromBody(fields),
      }));
      if (!parsed) return;
      const { post, named } = parsed;
      const target = await address(context, named.slug, named.locale);
      if (!target) return;
      const config = options.config()!;
      await serialiseWrites(entryFiles(target), async () => {
        const existing = await readPostFile(target.file);
        if (existing)
          return sendJson(context.response, 409, {
            error: 'exists',
            message: `"${target.slug}" already has a ${target.locale} version`,
            current: current(config, existing.text, existing.version),
          });
        let text: string;
        try {
          text = postText(undefined, post.frontMatter, post.body);
        } catch (error) {
          if (!(error instanceof FrontMatterEditError)) throw error;
          return sendJson(context.response, 422, { errors: [frontMatterProblem(error, target.display)] });
        }
        await save(context, config, target, text, null, 'create', 201);
      });
    },
  };

  /**
   * Deletes a translation after the whole site is checked without it (422), or holds the deletion
   * for review when an editor's would take it off the site; audits, rebuilds, publishes, answers.
   */
  async function deleteEntry(
    context: AdminRequest,
    config: ResolvedConfig,
    target: PostAddress,
    file: { text: string; version: string },
    detail: Record<string, unknown> = {},
  ) {
    const siteErrors = checkSite(target, undefined);
    if (siteErrors.length) return sendJson(context.response, 422, { errors: siteErrors.map(describeError) });
    if (options.review && mustHold(config, context, isPublicEntry(file.text)))
      return holdChange(
        options.review,
        context,
        { collection, slug: target.slug, locale: target.locale, base: file.version },
        '',
      );
    await deletePostFile(target.file);
    await options.audit.append({
      user: context.session.email,
      collection,
      action: 'delete',
      slug: target.slug,
      locale: target.locale,
      oldHash: file.version,
      newHash: null,
      ...detail,
    });
    const outcome = (await options.afterWrite?.(target.file)) ?? { rebuilt: false };
    const git = await publish(context, config, target, 'delete');
    options.notify?.('deleted', { slug: target.slug, locale: target.locale, user: context.session.email, ...outcome });
    sendJson(context.response, 200, { deleted: true, ...outcome, ...(git ? { git } : {}) });
  }

  const remove: AdminRoute = {
    method: 'DELETE',
    pattern: read.pattern,
    role: 'editor',
    async handle(context) {
      const addressed = await addressedVersion(context, 'deleting');
      if (!addressed) return;
      const { target, expected } = addressed;
      await serialiseWrites(entryFiles(target), async () => {
        const file = await readPostFile(target.file);
        if (!file) return sendJson(context.response, 404, { error: 'not_found' });
        if (file.version !== expected)
          return sendJson(context.response, 409, {
            error: 'stale',
            current: current(options.config()!, file.text, file.version),
          });
        await deleteEntry(context, options.config()!, target, file);
      });
    },
  };

  /** Whether any translation in an entry's folder is on the site (now or on its date). */
  async function anyPublic(config: ResolvedConfig, folder: string): Promise<boolean> {
    for (const locale of config.localeIds)
      if (isPublicEntry((await readPostFile(join(folder, `${locale}.md`)))?.text)) return true;
    return false;
  }

  /**
   * Renames an entry: its folder moves, redirects from every old address go into
   * site.config.yaml, and the site is rebuilt; a rebuild that fails puts both back (422). An
   * editor's rename of an entry on the site is held for review instead.
   */
  async function renameEntry(
    context: AdminRequest,
    config: ResolvedConfig,
    source: PostAddress,
    target: PostAddress,
    detail: Record<string, unknown> = {},
  ) {
    const build = options.lastBuild?.();
    if (!build)
      return sendJson(context.response, 503, {
        error: 'not_ready',
        message: 'the site has not been built yet: a rename needs its pages to know the old addresses',
      });
    const [from, to] = [dirname(source.file), dirname(target.file)];
    const configFile = resolve(process.cwd(), config.file);
    // Both folders whole (every translation, image and record in them) and the config, whose
    // redirects the settings may be writing too.
    await serialiseWrites([configFile, from, to], async () => {
      const names = await readdir(from).catch(() => undefined);
      if (!names) return sendJson(context.response, 404, { error: 'not_found', message: `no post "${source.slug}"` });
      const taken = () =>
        sendJson(context.response, 409, { error: 'exists', message: `there is already a post "${target.slug}"` });
      if (options.review && mustHold(config, context, await anyPublic(config, from))) {
        if (
          await readdir(to).then(
            () => true,
            () => false,
          )
        )
          return taken();
        return holdChange(
          options.review,
          context,
          { collection, slug: source.slug, locale: wholeEntry, base: '' },
          target.slug,
        );
      }
      const { redirects, changes } = renameRedirects(config, build.pageSet.pages, collection, source.slug, target.slug);
      const before = await readFile(configFile, 'utf8');
      let after: string;
      try {
        after = changes.length ? editConfigText(before, changes) : before;
      } catch (error) {
        const message =
          error instanceof ConfigEditError
            ? `${error.message} (the redirects of the rename could not be added)`
            : (error as Error).message;
        return sendJson(context.response, 422, {
          errors: [
            { code: 'CONFIG_INVALID', message, field: 'redirects', line: null, column: null, file: config.file },
          ],
        });
      }
      try {
        await moveFolder(from, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        return taken();
      }
      if (after !== before) await writeFileAtomic(configFile, after);
      const files = [configFile, ...names.flatMap((name) => [join(from, name), join(to, name)])];
      const outcome = (await options.afterWrite?.(files)) ?? { rebuilt: false };
      if (outcome.rebuilt && !outcome.ok) {
        // The site does not build so: the folder and the config go back as they were.
        await rename(to, from);
        if (after !== before) await writeFileAtomic(configFile, before);
        await options.afterWrite?.(files);
        return sendJson(context.response, 422, { errors: outcome.errors });
      }
      await options.audit.append({
        user: context.session.email,
        collection,
        action: 'rename',
        slug: source.slug,
        to: target.slug,
        oldHash: versionOf(before),
        newHash: versionOf(after),
        redirects: redirects.map((redirect) => redirect.from),
        ...detail,
      });
      options.notify?.('renamed', { slug: target.slug, from: source.slug, user: context.session.email, ...outcome });
      sendJson(context.response, 200, { slug: target.slug, redirects, ...outcome });
    });
  }

  /** POST posts/<slug>/rename with `{ slug }` (renameEntry). */
  const renamePost: AdminRoute = {
    method: 'POST',
    pattern: /^posts\/([^/]+)\/rename$/,
    role: 'editor',
    async handle(context) {
      const named = await readBody(context, addressFromBody);
      if (!named) return;
      const config = configOf(context.response);
      if (!config) return;
      const locale = config.site.defaultLocale;
      const source = await address(context, context.params[0]!, locale, true);
      const target = source && (await address(context, named.slug, locale));
      if (!source || !target) return;
      if (source.slug === target.slug)
        return sendJson(context.response, 400, {
          error: 'invalid_body',
          message: `the post is already called "${source.slug}"`,
        });
      await renameEntry(context, config, source, target);
    },
  };

  /** A post's versions (history.ts): kept after a deletion; a restore saves an existing post again as `update` does. */
  const itemOf = (target: PostAddress) => `${collection}/${target.slug}/${target.locale}`;
  const history =
    options.history &&
    historyRoutes({
      history: options.history,
      kind: 'entry',
      address: 'posts/([^/]+)/([^/]+)',
      role: 'editor',
      async open(context) {
        const target = await address(context, context.params[0]!, context.params[1]!, true);
        const file = target && (await readPostFile(target.file));
        return (
          target && {
            item: itemOf(target),
            files: file ? { [projectPath(options.config()!.root, target.file)]: file.text } : {},
          }
        );
      },
      async restore(context, version) {
        const addressed = await addressedVersion(context, 'replacing');
        if (!addressed) return;
        const { target, expected } = addressed;
        const config = options.config()!;
        await serialiseWrites(entryFiles(target), async () => {
          const file = await readPostFile(target.file);
          if (!file)
            return sendJson(context.response, 404, {
              error: 'not_found',
              message: `no ${target.locale} version of "${target.slug}" to restore into`,
            });
          if (file.version !== expected)
            return sendJson(
              context.response,
              409,
              { error: 'stale', current: current(config, file.text, file.version) },
              { etag: `"${file.version}"` },
            );
          await save(
            context,
            config,
            target,
            version.files[projectPath(config.root, target.file)] ?? '',
            file.version,
            'restore',
            200,
            file.text,
            { version: version.id },
          );
        });
      },
      async describe(before, after) {
        const path = Object.keys(after)[0];
        return path === undefined
          ? []
          : entryChangesInWords(options.config()!, collection, before[path] ?? '', after[path]!);
      },
    });

  /**
   * The changes held for review (review.ts): a translation's new text or deletion (text ''), made
   * against its file's version, or a rename (the whole entry: the new slug). Approving one makes it
   * through `save`, `deleteEntry` or `renameEntry` as the admin, so it is not held again.
   */
  const reviews =
    options.review &&
    reviewRoutes({
      review: options.review,
      audit: options.audit,
      scope: collection,
      async view(change) {
        const config = options.config()!;
        if (change.locale === wholeEntry) {
          const [from, to] = await Promise.all(
            [change.slug, change.text].map((slug) =>
              resolvePost(config, collection, slug, config.site.defaultLocale).then(
                (found) => dirname(found.file),
                () => undefined,
              ),
            ),
          );
          // Stale when the entry is gone or another took the new name since.
          const stale =
            !from ||
            !to ||
            !(await readdir(from).catch(() => [] as string[])).some((name) => name.endsWith('.md')) ||
            (await readdir(to).then(
              () => true,
              () => false,
            ));
          const folder = (path: string | undefined, slug: string) =>
            `${path ? sourcesOf(config).display(path) : slug}/\n`;
          return {
            collection,
            kind: 'rename',
            to: change.text,
            stale,
            diff: fileDiff(`${change.slug} (rename)`, folder(from, change.slug), folder(to, change.text), [
              'now',
              'renamed',
            ]),
          };
        }
        const file = await resolvePost(config, collection, change.slug, change.locale).then(
          (target) => readPostFile(target.file),
          () => undefined,
        );
        const name = `${change.slug} (${change.locale})`;
        return {
          collection,
          kind: change.text === '' ? 'delete' : 'save',
          stale: (file?.version ?? '') !== change.base,
          diff: fileDiff(name, file?.text ?? '', change.text, ['published', 'pending'], 4),
          changes: await entryChangesInWords(config, collection, file?.text ?? '', change.text),
        };
      },
      async apply(context, change) {
        const config = configOf(context.response);
        if (!config) return false;
        if (change.locale === wholeEntry) {
          const source = await address(context, change.slug, config.site.defaultLocale);
          const target = source && (await address(context, change.text, config.site.defaultLocale));
          if (!source || !target) return false;
          await renameEntry(context, config, source, target, { review: change.id });
          return context.response.statusCode === 200;
        }
        const target = await address(context, change.slug, change.locale);
        if (!target) return false;
        await serialiseWrites(entryFiles(target), async () => {
          const now = await readPostFile(target.file);
          if ((now?.version ?? '') !== change.base) return answerStale(context);
          if (change.text === '')
            return now ? deleteEntry(context, config, target, now, { review: change.id }) : answerStale(context);
          await save(
            context,
            config,
            target,
            change.text,
            now?.version ?? null,
            now ? 'update' : 'create',
            200,
            now?.text,
            { review: change.id },
          );
        });
        return context.response.statusCode === 200;
      },
    });
  const routes = [list, create, read, update, remove, renamePost, ...(history ?? []), ...(reviews ?? [])];
  return Object.assign(routes, {
    async warm() {
      const config = options.config();
      if (config && collectionNamed(config, collection)) await listedPosts(config);
    },
  });
}
