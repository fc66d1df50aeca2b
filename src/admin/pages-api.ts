/**
 * Every page's copy, for editors: `GET /api/admin/pages` → `{ pages: [{ id, label, locales, outdated }] }`
 * (each folder under content/pages/ with a `<locale>.yaml`; `outdated`: the locales whose translation
 * is older than the default locale's text); `GET /api/admin/pages/<id>/<locale>` →
 * `{ fields: [{ key, label, kind, value, source, locked }], version }` (the ETag; `source` is the default
 * locale's text beside it; `label` the key in words, `hero.ctaLabel` → "Hero › Cta label"); `PUT` the same address `{ changes: [{ key, value }] }` with `If-Match`
 * → 200 `{ version, diff, …rebuild }` | 409 stale | 428 no If-Match | 422 `{ errors }`.
 *
 * A field is a text leaf of the YAML (a line, a paragraph when it holds a line break, Markdown
 * when the key ends in `body` or `markdown`, as the templates render those) or a list of texts;
 * the texts of a list of objects are fields by their place (`items.1.title`, "Items › #2 › Title"). Only
 * keys the file already has change (the templates name the keys; a new one would show nowhere),
 * never the keys of `admin.locked`. The change is made in place (config-edit.ts: every other byte
 * kept), then the site is rebuilt as `site check` checks it; a build that fails puts the old text
 * back and answers 422 with its errors. Saves are audited and published to git as the settings are.
 *
 * Translation status (translations.ts): saving a locale other than the default records what the
 * default locale's file was then; reading the translation answers `translation: { outdated, since, diff }`.
 *
 * Review (`admin.review`, review.ts): every page's copy is on the site, so an editor's save (or
 * restore) is checked as above and then held as the file's new text (202 `{ pending }`) until an
 * admin approves it at `pages/reviews/<id>/approve`, which writes it through the same commit.
 */
import { withFinalNewline } from './final-newline.js';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseDocument } from '../yaml-package.js';
import { sourcesOf } from '../config/sources.js';
import type { ResolvedConfig } from '../config/load.js';
import type { AdminRequest, AdminRoute } from './api.js';
import { writeFileAtomic } from '../atomic-write.js';
import type { AuditLog } from './audit-log.js';
import { editConfigText, type ConfigChange } from './config-edit.js';
import { publishAudited } from './git-publish.js';
import { sendJson } from './http.js';
import {
  readTranslationRecords,
  recordTranslation,
  isTranslationOutdated,
  translationRecordsFile,
  translationState,
} from './translations.js';
import type { TranslationOrigins } from './translation-origins.js';
import { serialiseWrites } from './write-queue.js';
import { changedKeys, historyRoutes, projectPath, summaryOf, type History } from './history.js';
import { versionOf } from './post-files.js';
import type { SaveOutcome } from './posts-api.js';
import { ifMatch } from './settings-api.js';
import { fileDiff } from './text-diff.js';
import { pageChangesInWords } from './content-words.js';
import { labelOf } from './change-words.js';
import { answerStale, holdChange, mustHold, pagesScope, reviewRoutes, type Review } from './review.js';

export { labelOf };

/** How the editor shows a field. */
export type FieldKind = 'line' | 'paragraph' | 'markdown' | 'list';

/** A text of a page's copy, by dotted key. */
export interface PageField {
  key: string;
  label: string;
  kind: FieldKind;
  value: string | string[];
}

/** Options of the page copy routes. */
export interface PageRoutesOptions {
  config(): ResolvedConfig | undefined;
  audit: AuditLog;
  /** Where each save keeps the text it replaced (history.ts). */
  history?: History;
  /** After the file was written (serve: rebuild and publish; dev leaves it to the watcher). */
  afterWrite?(files: readonly string[]): Promise<SaveOutcome>;
  /** The clock of the translation records (tests). */
  now?(): number;
  /** Where editors' saves wait for an admin when `admin.review` is on (review.ts). */
  review?: Review;
  /** The status of translations never saved in the admin: from git, else the baseline (translation-origins.ts). */
  origins?: TranslationOrigins;
}

const pageId = /^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/;

/** A page of the list: its content id, the id in words, its locales, and those whose translation is outdated. */
export interface PageSummary {
  id: string;
  label: string;
  locales: string[];
  outdated: string[];
}

/** The page content ids under the copy folder, each with the locales it has a YAML file in, sorted. */
export async function listPages(config: ResolvedConfig, origins?: TranslationOrigins): Promise<PageSummary[]> {
  const root = sourcesOf(config).copyFolder;
  const pages: PageSummary[] = [];
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const locales = config.localeIds.filter((locale) =>
      entries.some((entry) => entry.isFile() && entry.name === `${locale}.yaml`),
    );
    if (locales.length && folder !== root) {
      const id = relative(root, folder).split(sep).join('/');
      const records = await readTranslationRecords(folder);
      const sourceFile = join(folder, `${config.site.defaultLocale}.yaml`);
      const source = await readFile(sourceFile, 'utf8').catch(() => '');
      const outdated: string[] = [];
      for (const locale of locales)
        if (
          locale !== config.site.defaultLocale &&
          (await isTranslationOutdated({
            config,
            record: records[locale],
            translationFile: join(folder, `${locale}.yaml`),
            sourceFile,
            sourceText: source,
            origins,
          }))
        )
          outdated.push(locale);
      pages.push({ id, label: labelOf(id), locales, outdated });
    }
    for (const entry of entries) if (entry.isDirectory()) await walk(join(folder, entry.name));
  };
  await walk(root);
  return pages.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** The fields of copy data: its text leaves and lists of texts, by dotted key, in the file's order. */
export function fieldsOf(data: unknown, prefix = ''): PageField[] {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.entries(data as Record<string, unknown>).flatMap(([name, value]): PageField[] => {
    const key = prefix ? `${prefix}.${name}` : name;
    const label = labelOf(key);
    if (typeof value === 'string')
      return [
        {
          key,
          label,
          kind: /(?:body|markdown)$/i.test(name) ? 'markdown' : value.includes('\n') ? 'paragraph' : 'line',
          value,
        },
      ];
    if (Array.isArray(value) && value.length && value.every((item) => typeof item === 'string'))
      return [{ key, label, kind: 'list', value: value as string[] }];
    // A list of objects (features, pricing tiers): each item's texts by its place, `items.1.title`.
    if (Array.isArray(value)) return value.flatMap((item, index) => fieldsOf(item, `${key}.${index}`));
    return fieldsOf(value, key);
  });
}

/** Whether `admin.locked` locks a key of a page (a locked key locks the keys below it too). */
function isLocked(config: ResolvedConfig, id: string, key: string): boolean {
  return config.admin.locked.some(
    (entry) => entry.content === id && entry.keys.some((locked) => key === locked || key.startsWith(`${locked}.`)),
  );
}

/** The routes of /api/admin/pages. */
export function createPageRoutes(options: PageRoutesOptions): AdminRoute[] {
  /** What a change of a page's copy in a locale writes: the file and its folder's translation records. */
  const copyFiles = (config: ResolvedConfig, id: string, locale: string) => [
    join(sourcesOf(config).copy(id), `${locale}.yaml`),
    translationRecordsFile(sourcesOf(config).copy(id)),
  ];

  /** The config, or undefined after answering 503. */
  const ready = (context: AdminRequest) => {
    const config = options.config();
    if (!config) sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
    return config;
  };

  /** The copy file of a page in a locale and its text; undefined after answering 404. */
  const pageFile = async (context: AdminRequest, config: ResolvedConfig, id: string, locale: string) => {
    const file = join(sourcesOf(config).copy(id), `${locale}.yaml`);
    const text =
      pageId.test(id) && config.localeIds.includes(locale)
        ? await readFile(file, 'utf8').catch(() => undefined)
        : undefined;
    if (text === undefined)
      sendJson(context.response, 404, { error: 'not_found', message: `there is no page copy ${id} in ${locale}` });
    return text === undefined ? undefined : { file, text, version: versionOf(text) };
  };

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^pages$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      if (config)
        sendJson(context.response, 200, {
          pages: await listPages(config, options.origins),
          defaultLocale: config.site.defaultLocale,
        });
    },
  };

  const read: AdminRoute = {
    method: 'GET',
    pattern: /^pages\/(.+)\/([a-z]{2,3})$/,
    role: 'editor',
    async handle(context) {
      const config = ready(context);
      if (!config) return;
      const [id, locale] = [context.params[0]!, context.params[1]!];
      const found = await pageFile(context, config, id, locale);
      if (!found) return;
      const sourceFile = join(sourcesOf(config).copy(id), `${config.site.defaultLocale}.yaml`);
      const sourceText = await readFile(sourceFile, 'utf8').catch(() => '');
      const source = new Map(fieldsOf(parseDocument(sourceText).toJS()).map((field) => [field.key, field.value]));
      const fields = fieldsOf(parseDocument(found.text).toJS()).map((field) => ({
        ...field,
        source: source.get(field.key) ?? null,
        locked: isLocked(config, id, field.key),
      }));
      const record =
        locale === config.site.defaultLocale
          ? undefined
          : (await readTranslationRecords(sourcesOf(config).copy(id)))[locale];
      const state =
        locale === config.site.defaultLocale
          ? undefined
          : await translationState({
              config,
              record,
              translationFile: found.file,
              sourceFile,
              sourceText,
              display: sourcesOf(config).display(sourceFile),
              origins: options.origins,
            });
      const translation = state?.status.outdated
        ? { ...state.status, changes: await pageChangesInWords(config, state.base, sourceText) }
        : state?.status;
      sendJson(
        context.response,
        200,
        {
          id,
          locale,
          sourceLocale: config.site.defaultLocale,
          fields,
          version: found.version,
          ...(translation ? { translation } : {}),
        },
        { etag: `"${found.version}"` },
      );
    },
  };

  const update: AdminRoute = {
    method: 'PUT',
    pattern: /^pages\/(.+)\/([a-z]{2,3})$/,
    role: 'editor',
    async handle(context) {
      await current(context, async (config, id, locale, found) => {
        const body = await context.body();
        const changes = Array.isArray(body.changes) ? (body.changes as unknown[]) : undefined;
        if (!changes?.length)
          return sendJson(context.response, 400, {
            error: 'invalid_body',
            message: 'send { changes: [{ key, value }] }',
          });
        const fields = new Map(fieldsOf(parseDocument(found.text).toJS()).map((field) => [field.key, field]));
        const errors: { path: string | null; message: string; line: null; column: null }[] = [];
        const edits: ConfigChange[] = [];
        for (const change of changes) {
          const { key, value } = (change ?? {}) as { key?: unknown; value?: unknown };
          const field = typeof key === 'string' ? fields.get(key) : undefined;
          const refuse = (message: string) =>
            errors.push({ path: typeof key === 'string' ? key : null, message, line: null, column: null });
          if (!field) refuse(`${String(key)} is not a text of this page`);
          else if (isLocked(config, id, field.key)) refuse(`${field.key} is locked by the site's developer`);
          else if (field.kind === 'list') {
            if (
              !Array.isArray(value) ||
              !value.length ||
              !value.every((item) => typeof item === 'string' && item.trim())
            )
              refuse(`give ${field.key} as a list of texts, none empty`);
            else
              (value as string[]).forEach((item, index) =>
                edits.push({ path: [...field.key.split('.'), String(index)], value: item }),
              );
            if (Array.isArray(value) && value.length !== (field.value as string[]).length)
              refuse(`${field.key} keeps its ${(field.value as string[]).length} items`);
          } else if (typeof value !== 'string' || !value.trim()) refuse(`write a text for ${field.key}`);
          else if (field.kind === 'line' && value.includes('\n')) refuse(`${field.key} is one line`);
          else edits.push({ path: field.key.split('.'), value });
        }
        if (errors.length) return sendJson(context.response, 422, { errors });
        let after: string;
        try {
          after = editConfigText(found.text, edits);
        } catch (error) {
          return sendJson(context.response, 422, {
            errors: [{ path: null, message: (error as Error).message, line: null, column: null }],
          });
        }
        await commit(
          context,
          config,
          id,
          locale,
          found,
          after,
          [...new Set(changes.map((change) => String((change as { key: string }).key)))],
          'page-copy',
        );
      });
    },
  };

  /**
   * Runs `work` on the page copy of a route's path, one change of a file at a time, when the
   * request's If-Match is its version (428 without one, 409 when it is not, 404 for no such copy).
   */
  async function current(
    context: AdminRequest,
    work: (
      config: ResolvedConfig,
      id: string,
      locale: string,
      found: { file: string; text: string; version: string },
    ) => Promise<void>,
  ) {
    const expected = ifMatch(context);
    if (!expected)
      return sendJson(context.response, 428, {
        error: 'if_match_required',
        message: 'send the version you are editing in If-Match',
      });
    const config = ready(context);
    if (!config) return;
    const [id, locale] = [context.params[0]!, context.params[1]!];
    await serialiseWrites(copyFiles(config, id, locale), async () => {
      const found = await pageFile(context, config, id, locale);
      if (!found) return;
      if (found.version !== expected)
        return sendJson(
          context.response,
          409,
          { error: 'stale', version: found.version },
          { etag: `"${found.version}"` },
        );
      await work(config, id, locale, found);
    });
  }

  /**
   * Writes a page's new text, rebuilds (a build that fails puts the old text back: 422), records
   * the translation, keeps the old text as a version, audits, publishes and answers the save.
   */
  async function commit(
    context: AdminRequest,
    config: ResolvedConfig,
    id: string,
    locale: string,
    found: { file: string; text: string; version: string },
    edited: string,
    keys: string[],
    action: string,
    detail: Record<string, unknown> = {},
  ) {
    const after = withFinalNewline(edited);
    if (options.review && mustHold(config, context, true))
      return holdChange(
        options.review,
        context,
        { collection: pagesScope, slug: id, locale, base: found.version },
        after,
      );
    await writeFileAtomic(found.file, after);
    const outcome: SaveOutcome = options.afterWrite ? await options.afterWrite([found.file]) : { rebuilt: false };
    if (outcome.rebuilt && !outcome.ok) {
      await writeFileAtomic(found.file, found.text);
      await options.afterWrite?.([found.file]);
      return sendJson(context.response, 422, {
        errors: outcome.errors.map((error) => ({
          path: error.field ?? null,
          message: error.message,
          line: error.line ?? null,
          column: error.column ?? null,
        })),
      });
    }
    const version = versionOf(after);
    const written = [found.file];
    if (locale !== config.site.defaultLocale) {
      const folder = sourcesOf(config).copy(id);
      const source = await readFile(join(folder, `${config.site.defaultLocale}.yaml`), 'utf8').catch(() => '');
      written.push(await recordTranslation(folder, locale, source, options.now?.() ?? Date.now()));
    }
    const file = sourcesOf(config).display(found.file);
    await options.audit.append({
      user: context.session.email,
      action,
      page: id,
      locale,
      file,
      oldHash: found.version,
      newHash: version,
      paths: keys,
      ...detail,
    });
    await options.history?.record('page', `${id}/${locale}`, context.session.email, summaryOf(keys), {
      [projectPath(config.root, found.file)]: found.text,
    });
    const git = await publishAudited(
      options.audit,
      context.session.email,
      config,
      written,
      `content(pages): ${action === 'restore' ? 'restore' : 'update'} ${id} (${locale}): ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`,
    );
    sendJson(
      context.response,
      200,
      { version, diff: fileDiff(file, found.text, after), ...outcome, ...(git ? { git } : {}) },
      { etag: `"${version}"` },
    );
  }

  /**
   * A page's versions (history.ts). A restore is a save of the whole old text, refused (422)
   * where it would change a key the developer has locked since.
   */
  const history =
    options.history &&
    historyRoutes({
      history: options.history,
      kind: 'page',
      address: 'pages/(.+)/([a-z]{2,3})',
      role: 'editor',
      async open(context) {
        const config = ready(context);
        const found = config && (await pageFile(context, config, context.params[0]!, context.params[1]!));
        return (
          found && {
            item: `${context.params[0]}/${context.params[1]}`,
            files: { [projectPath(config.root, found.file)]: found.text },
          }
        );
      },
      async restore(context, saved) {
        await current(context, async (config, id, locale, found) => {
          const after = saved.files[projectPath(config.root, found.file)] ?? '';
          const keys = changedKeys(parseDocument(found.text).toJS(), parseDocument(after).toJS());
          const locked = keys.filter((key) => isLocked(config, id, key));
          if (locked.length)
            return sendJson(context.response, 422, {
              errors: locked.map((key) => ({
                path: key,
                message: `${key} is locked by the site's developer`,
                line: null,
                column: null,
              })),
            });
          await commit(context, config, id, locale, found, after, keys, 'restore', { version: saved.id });
        });
      },
      async describe(before, after) {
        const config = options.config();
        const path = Object.keys(after)[0];
        return config && path !== undefined ? pageChangesInWords(config, before[path] ?? '', after[path]!) : [];
      },
    });

  /** An editor's held save of a page (review.ts): approved, it is committed as the admin's, with the keys it changes, unless one is locked now. */
  const reviews =
    options.review &&
    reviewRoutes({
      review: options.review,
      audit: options.audit,
      scope: pagesScope,
      prefix: 'pages/',
      async view(change) {
        const config = options.config();
        const file = config && join(sourcesOf(config).copy(change.slug), `${change.locale}.yaml`);
        const text = file && (await readFile(file, 'utf8').catch(() => undefined));
        return {
          kind: 'save',
          name: labelOf(change.slug),
          stale: text === undefined || versionOf(text) !== change.base,
          diff: fileDiff(
            config && file ? sourcesOf(config).display(file) : change.slug,
            text ?? '',
            change.text,
            ['published', 'pending'],
            4,
          ),
          ...(config && text !== undefined ? { changes: await pageChangesInWords(config, text, change.text) } : {}),
        };
      },
      async apply(context, change) {
        const config = ready(context);
        if (!config) return false;
        await serialiseWrites(copyFiles(config, change.slug, change.locale), async () => {
          const found = await pageFile(context, config, change.slug, change.locale);
          if (!found) return;
          if (found.version !== change.base) return answerStale(context, 'page');
          const keys = changedKeys(parseDocument(found.text).toJS(), parseDocument(change.text).toJS());
          const locked = keys.filter((key) => isLocked(config, change.slug, key));
          if (locked.length)
            return sendJson(context.response, 422, {
              errors: locked.map((key) => ({
                path: key,
                message: `${key} is locked by the site's developer`,
                line: null,
                column: null,
              })),
            });
          await commit(context, config, change.slug, change.locale, found, change.text, keys, 'page-copy', {
            review: change.id,
          });
        });
        return context.response.statusCode === 200;
      },
      auditOf: async (change) => ({ page: change.slug, locale: change.locale }),
    });

  return [list, read, update, ...(history ?? []), ...(reviews ?? [])];
}
