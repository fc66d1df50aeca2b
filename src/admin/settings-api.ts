/**
 * The settings of `site.config.yaml` that marketers own, for admins: `GET /api/admin/settings` →
 * `{ values, version }` (the editable subset; the version is the hash of the file, also the ETag);
 * `PUT /api/admin/settings` `{ changes: [{ path: "booking.url", value }] }` with `If-Match` → 200
 * `{ version, diff, …rebuild }` | 409 stale | 422 `{ errors: [{ path, message, line, column }] }`;
 * `POST /api/admin/settings/diff` with the same body → `{ diff }` (or 422) without saving.
 * The blog's categories are edited here too (`categories.<collection>.<term>.<locale>` names one,
 * `categories.<collection>.<term>: null` removes one; see categories-edit.ts): they live in the
 * config's terms and in the messages of each language, so a save may write those files as well,
 * and the version covers all of them. A plan's whole price is `plans.<i>.price`: `{ amount,
 * currency, period }`, or null for on request (written as `on-request`). So are the page texts the config offers (`admin.copy`:
 * `copy.<n>.<locale>`, in content/pages/<content>/<locale>.yaml).
 *
 * Only the paths of `editableSettings` and those the site declares in `admin.settings` (a plan's
 * limits, its `data:`, checked by the declared type: declared-settings.ts) may change (routes,
 * locales, audiences, navigation, paths, output and aliases stay developer-only). A change is made in place in the file's text
 * (config-edit.ts: every other byte kept), the new text is checked by the config's own loader
 * (the zod schema and the cross-field checks, so the errors are those `site check` gives, with
 * the line and column in the new text), then written atomically, logged and rebuilt. A rebuild
 * that fails puts the old text back and answers 422 with the build's errors.
 */
import { withFinalNewline } from './final-newline.js';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sourcesOf } from '../config/sources.js';
import { listEntrySlugs } from '../content/collections.js';
import { categorisedCollections, categoryValues, planCategoryChanges, type CategoryChange } from './categories-edit.js';
import { readFrontMatter } from './front-matter-edit.js';
import { parseDocument } from '../yaml-package.js';
import type { ResolvedConfig } from '../config/load.js';
import { parseConfig } from '../config/load.js';
import { collectSiteErrors, errorCatalogue, type SiteError } from '../errors.js';
import { devUser, type AdminRequest, type AdminRoute } from './api.js';
import { writeFileAtomic } from '../atomic-write.js';
import { fileDiff } from './text-diff.js';
import type { AuditLog } from './audit-log.js';
import { ConfigEditError, editConfigText, type ConfigChange, type ConfigValue } from './config-edit.js';
import { declaredChange, declaredValues } from './declared-settings.js';
import { publishToGit, type GitOutcome } from './git-publish.js';
import { changedKeys, historyRoutes, projectPath, summaryOf, type History } from './history.js';
import { sendJson } from './http.js';
import { versionOf } from './post-files.js';
import { serialiseWrites } from './write-queue.js';
import type { SaveOutcome } from './posts-api.js';
import { settingsChangesInWords } from './settings-words.js';
import { answerStale, holdChange, mustHold, reviewRoutes, settingsScope, wholeEntry, type Review } from './review.js';

/**
 * The dotted paths of the engine's own settings an admin may change; list indexes as numbers
 * ("plans.1.signupUrl"). What else a site offers it declares in `admin.settings` (declared-settings.ts).
 */
export const editableSettings: readonly RegExp[] = [
  /^company\.(?:legalName|orgNumber|email)$/,
  /^company\.address\.(?:street|postalCode|city|country)$/,
  /^company\.social\.[a-z][a-z0-9-]*$/,
  /^company\.openingHours\.(?:opens|closes)$/,
  /^booking\.(?:url|minutes)$/,
  /^plans\.\d+\.(?:name\.[a-z]{2,3}|highlighted|signupUrl|price\.amount)$/,
  /^contact\.endpoint$/,
  /^collections\.[a-z0-9-]+\.(?:pageSize|wordsPerMinute)$/,
];

/** The paths of the page copy of `admin.copy` (`copy.<item>.<locale>`: the item-th key of the list, in a language). */
const copyPath = /^copy\.(\d+)\.([a-z]{2,3})$/;

/** The paths of the categories: a name (`categories.blog.retail.no`), or the category itself (null removes it). */
const categoryPath = /^categories\.([a-z0-9-]+)\.([\w-]+)(?:\.([a-z]{2,3}))?$/;

/** The editable subset of a config, as the settings page shows it (the categories come apart: see categoryValues). */
export function editableValues(config: ResolvedConfig) {
  const { company, booking, contact } = config;
  // The settings page offers what the site has: no company or booking fields without them in the config.
  return {
    ...(company
      ? {
          company: {
            legalName: company.legalName,
            orgNumber: company.orgNumber,
            email: company.email,
            address: company.address,
            social: company.social,
            ...(company.openingHours
              ? { openingHours: { opens: company.openingHours.opens, closes: company.openingHours.closes } }
              : {}),
          },
        }
      : {}),
    ...(booking ? { booking: { url: booking.url ?? null, minutes: booking.minutes } } : {}),
    plans: config.plans.map((plan) => ({
      id: plan.id,
      name: plan.name,
      price: plan.price,
      highlighted: plan.highlighted,
      signupUrl: plan.signupUrl ?? null,
    })),
    contact: { endpoint: contact.endpoint },
    collections: Object.fromEntries(
      Object.entries(config.collections).map(([id, settings]) => [
        id,
        { pageSize: settings.pageSize, wordsPerMinute: settings.wordsPerMinute },
      ]),
    ),
    /** The settings of `admin.settings`, one per path the config holds. */
    declared: declaredValues(config),
  };
}

/** One problem with the changes, at a dotted path of the config. */
export interface SettingsError {
  path: string | null;
  message: string;
  line: number | null;
  column: number | null;
  hint?: string;
}

/**
 * The changes of a request body, each at an engine setting's path or one the site declares (checked
 * by its declared type); throws a message for a body that is not a list of { path, value }.
 */
export function changesFromBody(
  body: Record<string, unknown>,
  config: ResolvedConfig,
): { changes: ConfigChange[]; categories: CategoryChange[]; copy: CopyChange[]; errors: SettingsError[] } {
  const list = body.changes;
  if (!Array.isArray(list) || list.length === 0 || list.length > 200)
    throw new Error('send { "changes": [{ "path": "booking.url", "value": … }] } with 1 to 200 changes');
  const changes: ConfigChange[] = [];
  const categories: CategoryChange[] = [];
  const copy: CopyChange[] = [];
  const errors: SettingsError[] = [];
  for (const item of list as unknown[]) {
    const { path, value } = (typeof item === 'object' && item !== null ? item : {}) as {
      path?: unknown;
      value?: unknown;
    };
    if (typeof path !== 'string' || !/^[\w-]+(?:\.[\w-]+)*$/.test(path))
      throw new Error('each change needs a dotted "path" such as "booking.minutes"');
    if (pricePath.test(path)) {
      const price = planPrice(path, value);
      if ('error' in price) errors.push(price.error);
      else
        changes.push({
          path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
          value: price.value,
        });
      continue;
    }
    if (
      !(value === null || ['string', 'number', 'boolean'].includes(typeof value)) ||
      (typeof value === 'number' && !Number.isFinite(value))
    )
      throw new Error(`the value of ${path} must be a string, a number, true, false or null`);
    if (typeof value === 'string' && value.length > 2000)
      throw new Error(`the value of ${path} is longer than 2000 characters`);
    const text = copyPath.exec(path);
    if (text) {
      if (typeof value !== 'string' || !value.trim())
        errors.push({ path, message: 'write a text here', line: null, column: null });
      else if (/[\r\n]/.test(value))
        errors.push({ path, message: 'write it as one paragraph, without line breaks', line: null, column: null });
      else copy.push({ item: Number(text[1]), locale: text[2]!, value: value.trim() });
      continue;
    }
    const category = categoryPath.exec(path);
    if (category) {
      if (typeof value !== 'string' && value !== null) throw new Error(`the value of ${path} must be a name or null`);
      if (value === null && category[3])
        throw new Error(`remove a category as ${path.slice(0, path.lastIndexOf('.'))}: null`);
      categories.push({
        collection: category[1]!,
        term: category[2]!,
        ...(category[3] ? { locale: category[3] } : {}),
        value,
      });
      continue;
    }
    const declared = declaredChange(config, path, value);
    if (declared) {
      if ('problem' in declared) errors.push({ path, message: declared.problem, line: null, column: null });
      else changes.push(declared.change);
      continue;
    }
    if (!editableSettings.some((pattern) => pattern.test(path))) {
      errors.push({
        path,
        message: `${path} is not edited here: a developer changes it in site.config.yaml, or declares it in admin.settings`,
        line: null,
        column: null,
      });
      continue;
    }
    changes.push({
      path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      value: value as ConfigValue,
    });
  }
  return { changes, categories, copy, errors };
}

/** The path of a plan's whole price: `{ amount, currency, period }`, or null for "on request". */
const pricePath = /^plans\.\d+\.price$/;

/**
 * The config value of a plan's price as the API takes it: `{ amount, currency, period }` (the
 * amount a number of at least 0, the currency an ISO 4217 code, the period month or year) or null,
 * which the config says as `on-request`; a settings error for anything else.
 */
function planPrice(path: string, value: unknown): { value: ConfigValue } | { error: SettingsError } {
  if (value === null) return { value: 'on-request' };
  const refuse = (message: string, at = path) => ({ error: { path: at, message, line: null, column: null } });
  if (typeof value !== 'object' || Array.isArray(value))
    return refuse('send the price as { "amount", "currency", "period" }, or null for on request');
  const { amount, currency, period, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length)
    return refuse(`a price has only an amount, a currency and a period, not ${Object.keys(rest).join(', ')}`);
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
    return refuse('Write the price as a number of 0 or more.', `${path}.amount`);
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
    return refuse('Write the currency as its three capital letters, such as EUR or NOK.', `${path}.currency`);
  if (period !== 'month' && period !== 'year')
    return refuse('Choose whether the price is paid per month or per year.', `${path}.period`);
  return { value: { amount, currency, period } };
}

/** A change of a text of `admin.copy`: the item-th (content, key) pair, in a language. */
export interface CopyChange {
  item: number;
  locale: string;
  value: string;
}

/** The (content folder, dotted key) pairs of `admin.copy`, in order: `copy.<item>` names them by index. */
export function copyItems(config: ResolvedConfig): { content: string; key: string }[] {
  return config.admin.copy.flatMap((entry) => entry.keys.map((key) => ({ content: entry.content, key })));
}

/** The text at a dotted key of copy data, or undefined. */
function textAt(data: unknown, key: string): unknown {
  let here = data;
  for (const part of key.split('.'))
    here = here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[part] : undefined;
  return here;
}

/** Options of the settings routes. */
export interface SettingsRoutesOptions {
  config(): ResolvedConfig | undefined;
  audit: AuditLog;
  /** Where each save keeps the texts it replaced (history.ts). */
  history?: History;
  /** After the files were written (serve: rebuild and publish; dev leaves it to the watcher). */
  afterWrite?(files: readonly string[]): Promise<SaveOutcome>;
  /** Where an editor's changes wait for an admin when `admin.review` is on (review.ts): editors may then propose settings. */
  review?: Review;
}

/** The files the settings edit, as they are now: the config and (with categories) each language's messages. */
interface SettingsFiles {
  config: ResolvedConfig;
  /** The config file, absolute. */
  file: string;
  text: string;
  /** The messages file and its text per locale (none when no collection has categories). */
  messages: Record<string, { file: string; text: string }>;
  /** The copy files of `admin.copy` that exist, by path, with their texts. */
  copies: Map<string, string>;
  version: string;
}

/** The copy file of a content folder in a language. */
function copyFile(config: ResolvedConfig, content: string, locale: string): string {
  return join(sourcesOf(config).copy(content), `${locale}.yaml`);
}

/** What a save writes, in order (each step leaves a site that builds), and the paths it changes. */
interface SettingsSave {
  steps: { file: string; text: string }[];
  /** Each file's text before and after. */
  changed: Map<string, { before: string; after: string }>;
  paths: string[];
}

/** Reads the settings files of a config. */
async function readSettingsFiles(config: ResolvedConfig): Promise<SettingsFiles> {
  const file = resolve(process.cwd(), config.file);
  const text = await readFile(file, 'utf8');
  const messages: SettingsFiles['messages'] = {};
  if (categorisedCollections(config).length) {
    for (const locale of config.localeIds) {
      const path = sourcesOf(config).messages(locale);
      messages[locale] = { file: path, text: await readFile(path, 'utf8') };
    }
  }
  const copies = new Map<string, string>();
  for (const { content } of config.admin.copy) {
    for (const locale of config.localeIds) {
      const path = copyFile(config, content, locale);
      if (copies.has(path)) continue;
      const found = await readFile(path, 'utf8').catch(() => undefined);
      if (found !== undefined) copies.set(path, found);
    }
  }
  const files = { config, file, text, messages, copies };
  return { ...files, version: settingsVersion(files) };
}

/** Every file a settings save may write (the write queue's paths): the config, the messages, the page copy. */
function settingsFilePaths(config: ResolvedConfig): string[] {
  const messages = categorisedCollections(config).length
    ? config.localeIds.map((locale) => sourcesOf(config).messages(locale))
    : [];
  const copies = config.admin.copy.flatMap(({ content }) =>
    config.localeIds.map((locale) => copyFile(config, content, locale)),
  );
  return [resolve(process.cwd(), config.file), ...messages, ...copies];
}

/** The settings files and their texts now: the config, then the messages and the page copy. */
function settingsFileTexts(found: SettingsFiles): Map<string, string> {
  return new Map([
    [found.file, found.text],
    ...Object.values(found.messages).map((entry): [string, string] => [entry.file, entry.text]),
    ...found.copies,
  ]);
}

/** The key of the settings' versions in the store. */
const settingsItem = 'site.config.yaml';

/** The version of the settings files: the hash of their texts, in a fixed order; `after` gives a file's text after a save. */
function settingsVersion(
  files: Omit<SettingsFiles, 'version'>,
  after: (file: string, text: string) => string = (_file, text) => text,
): string {
  const { messages, copies } = files;
  const texts = [
    after(files.file, files.text),
    ...Object.keys(messages)
      .sort()
      .map((locale) => after(messages[locale]!.file, messages[locale]!.text)),
    ...[...copies].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, copy]) => after(path, copy)),
  ];
  return versionOf(texts.join('\0'));
}

/** The posts that name each category ("blog/retail" → ["a-post (en)", …]), drafts and scheduled posts included. */
async function categoryUsage(config: ResolvedConfig): Promise<Map<string, string[]>> {
  const usage = new Map<string, string[]>();
  for (const collection of categorisedCollections(config)) {
    const field = config.collections[collection]!.taxonomy!.field;
    for (const slug of await listEntrySlugs(config, collection)) {
      for (const locale of config.localeIds) {
        const text = await readFile(join(sourcesOf(config).collection(collection), slug, `${locale}.md`), 'utf8').catch(
          () => undefined,
        );
        if (text === undefined) continue;
        const term = readFrontMatter(text)[field];
        if (typeof term !== 'string') continue;
        const key = `${collection}/${term}`;
        usage.set(key, [...(usage.get(key) ?? []), `${slug} (${locale})`]);
      }
    }
  }
  return usage;
}

/** The page templates the config names (routes are not edited here, so they stay valid). */
function templatesOf(config: ResolvedConfig): string[] {
  return [...new Set(config.routes.map((route) => route.template))];
}

/** The problems `site check` finds in config text, as settings errors (none when it loads). */
export function checkConfigText(text: string, config: ResolvedConfig): SettingsError[] {
  try {
    parseConfig(text, config.file, config.root, { templates: templatesOf(config) });
    return [];
  } catch (error) {
    const errors = collectSiteErrors(error);
    if (!errors?.length) throw error;
    // A hint of its own only: the catalogue's ("See schema/site.config.schema.json …") is for developers.
    const ownHint = (found: SiteError) => found.hint && found.hint !== errorCatalogue[found.code].hint;
    return errors.map((found) => ({
      path: found.field ?? null,
      message: found.message,
      line: found.line ?? null,
      column: found.column ?? null,
      ...(ownHint(found) ? { hint: found.hint } : {}),
    }));
  }
}

/** The routes of /api/admin/settings. */
export function createSettingsRoutes(options: SettingsRoutesOptions): AdminRoute[] {
  /** The settings files now; answered 503 and undefined while the site has not been built. */
  const current = async (context: AdminRequest) => {
    const config = options.config();
    if (config) return readSettingsFiles(config);
    sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
    return undefined;
  };

  /** The edit error of a change, as a settings error. */
  const editError = (error: unknown): SettingsError => ({
    path: error instanceof ConfigEditError ? error.path.join('.') : null,
    message: (error as Error).message,
    line: null,
    column: null,
  });

  /** What the body's changes write, checked as `site check` checks the config; answers 400/422 and gives undefined when they cannot be saved. */
  const planned = async (context: AdminRequest, found: SettingsFiles): Promise<SettingsSave | undefined> => {
    const result = await plan(found, await context.body());
    if ('save' in result) return result.save;
    sendJson(context.response, result.status, result.answer);
    return undefined;
  };

  /** What a body's changes write, or the answer that refuses them (400, 422). */
  const plan = async (
    found: SettingsFiles,
    body: Record<string, unknown>,
  ): Promise<{ save: SettingsSave } | { status: number; answer: Record<string, unknown> }> => {
    let parsed: ReturnType<typeof changesFromBody>;
    try {
      parsed = changesFromBody(body, found.config);
    } catch (error) {
      return { status: 400, answer: { error: 'invalid_body', message: (error as Error).message } };
    }
    const refuse = (errors: SettingsError[]) => ({ status: 422, answer: { errors } });
    if (parsed.errors.length) return refuse(parsed.errors);
    const { config } = found;
    const messageTexts = Object.fromEntries(
      Object.entries(found.messages).map(([locale, entry]) => [locale, entry.text]),
    );
    const categories = parsed.categories.length
      ? planCategoryChanges(config, messageTexts, await categoryUsage(config), parsed.categories)
      : { config: [], messages: {}, removals: {}, errors: [] };
    if (categories.errors.length)
      return refuse(categories.errors.map((error) => ({ ...error, line: null, column: null })));
    const steps: SettingsSave['steps'] = [];
    const changed = new Map<string, { before: string; after: string }>();
    const step = (file: string, before: string, edits: readonly ConfigChange[]) => {
      const after = withFinalNewline(editConfigText(changed.get(file)?.after ?? before, edits));
      steps.push({ file, text: after });
      changed.set(file, { before: changed.get(file)?.before ?? before, after });
    };
    try {
      // Page copy first (nothing else reads it), names next (the old config still builds with them),
      // then the config, then the names of removed categories.
      const items = copyItems(config);
      const byFile = new Map<string, ConfigChange[]>();
      for (const change of parsed.copy) {
        const item = items[change.item];
        const path =
          item && config.localeIds.includes(change.locale) ? copyFile(config, item.content, change.locale) : undefined;
        if (!item || !path || !found.copies.has(path))
          return refuse([
            {
              path: `copy.${change.item}.${change.locale}`,
              message: `copy.${change.item}.${change.locale} is not a text the settings offer`,
              line: null,
              column: null,
            },
          ]);
        byFile.set(path, [...(byFile.get(path) ?? []), { path: item.key.split('.'), value: change.value }]);
      }
      for (const [path, edits] of byFile) step(path, found.copies.get(path)!, edits);
      for (const [locale, edits] of Object.entries(categories.messages))
        step(found.messages[locale]!.file, found.messages[locale]!.text, edits);
      const configEdits = [...parsed.changes, ...categories.config];
      if (configEdits.length) step(found.file, found.text, configEdits);
      for (const [locale, edits] of Object.entries(categories.removals))
        step(found.messages[locale]!.file, found.messages[locale]!.text, edits);
    } catch (error) {
      return refuse([editError(error)]);
    }
    const problems = checkConfigText(changed.get(found.file)?.after ?? found.text, config);
    if (problems.length) return refuse(problems);
    const items = copyItems(config);
    const paths = [
      ...parsed.changes.map((change) => change.path.join('.')),
      ...parsed.categories.map((change) => `categories.${change.collection}.${change.term}`),
      ...parsed.copy.map((change) => `${items[change.item]!.content}:${items[change.item]!.key}`),
    ];
    return { save: { steps, changed, paths: [...new Set(paths)] } };
  };

  /** The diff of a save, file by file. */
  const diffOf = (save: SettingsSave) =>
    [...save.changed]
      .map(([file, { before, after }]) => fileDiff(sourcesOf(options.config()!).display(file), before, after))
      .join('');

  /**
   * Commits (and pushes) the changed files when `publish.git.commit` says so (as the posts do),
   * and logs the outcome; undefined when publishing to git is off.
   */
  async function publish(
    context: AdminRequest,
    config: ResolvedConfig,
    save: SettingsSave,
  ): Promise<GitOutcome | undefined> {
    const settings = config.publish.git;
    if (!settings.commit) return undefined;
    const email = context.session.email;
    const author = email === devUser.email ? undefined : { name: email.slice(0, email.indexOf('@')), email };
    const { paths } = save;
    const message = `content(settings): update ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
    const outcome = await publishToGit(
      { root: config.root, file: [...save.changed.keys()], author, message },
      settings,
    );
    await options.audit.append({
      user: email,
      action: outcome.error ? 'git-failed' : 'git-commit',
      file: config.file,
      commit: outcome.commit ?? null,
      pushed: outcome.pushed,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    return outcome;
  }

  /**
   * Whether the session may use the settings: an admin, or an editor while review is on (their
   * saves then wait for an admin); answers 403 otherwise.
   */
  const allowed = (context: AdminRequest) => {
    const config = options.config();
    if (context.session.role === 'admin' || (options.review && config?.admin.review)) return true;
    sendJson(context.response, 403, { error: 'forbidden', message: 'this needs an administrator account' });
    return false;
  };

  const read: AdminRoute = {
    method: 'GET',
    pattern: /^settings$/,
    role: 'editor',
    async handle(context) {
      if (!allowed(context)) return;
      const found = await current(context);
      if (!found) return;
      // The values as the file now has them (with the config's defaults); the last build's while the file does not load.
      let config = found.config;
      try {
        config = parseConfig(found.text, found.config.file, found.config.root, {
          templates: templatesOf(found.config),
        });
      } catch {
        // The last good config stands in.
      }
      const messageTexts = Object.fromEntries(
        Object.entries(found.messages).map(([locale, entry]) => [locale, entry.text]),
      );
      const categories = Object.keys(found.messages).length
        ? categoryValues(config, messageTexts, await categoryUsage(config))
        : {};
      const copies = new Map([...found.copies].map(([path, text]) => [path, parseDocument(text).toJS() as unknown]));
      const copy = copyItems(config).map(({ content, key }) => ({
        content,
        key,
        values: Object.fromEntries(
          config.localeIds.flatMap((locale) => {
            const data = copies.get(copyFile(config, content, locale));
            const value = textAt(data, key);
            return data === undefined || typeof value !== 'string' ? [] : [[locale, value]];
          }),
        ),
      }));
      sendJson(
        context.response,
        200,
        { values: { ...editableValues(config), categories, copy }, version: found.version, file: found.config.file },
        { etag: `"${found.version}"` },
      );
    },
  };

  const diff: AdminRoute = {
    method: 'POST',
    pattern: /^settings\/diff$/,
    role: 'editor',
    async handle(context) {
      if (!allowed(context)) return;
      const found = await current(context);
      if (!found) return;
      const save = await planned(context, found);
      if (!save) return;
      sendJson(context.response, 200, {
        diff: diffOf(save),
        changes: await settingsChangesInWords(found.config, found.file, save.changed),
        version: found.version,
      });
    },
  };

  const update: AdminRoute = {
    method: 'PUT',
    pattern: /^settings$/,
    role: 'editor',
    async handle(context) {
      if (!allowed(context)) return;
      const expected = ifMatch(context);
      if (!expected)
        return sendJson(context.response, 428, {
          error: 'if_match_required',
          message: 'send the version you are editing in If-Match',
        });
      const config = options.config();
      if (!config)
        return sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
      await serialiseWrites(settingsFilePaths(config), async () => {
        const found = await current(context);
        if (!found) return;
        if (found.version !== expected)
          return sendJson(
            context.response,
            409,
            { error: 'stale', version: found.version },
            { etag: `"${found.version}"` },
          );
        const body = await context.body();
        const result = await plan(found, body);
        if (!('save' in result)) return sendJson(context.response, result.status, result.answer);
        // An editor's settings wait for an admin (they are on the site wherever they show); the held text is the changes.
        if (options.review && mustHold(found.config, context, true))
          return holdChange(
            options.review,
            context,
            { collection: settingsScope, slug: 'settings', locale: wholeEntry, base: found.version },
            JSON.stringify(body.changes),
          );
        await commit(context, found, result.save, 'settings');
      });
    },
  };

  /** The held changes of editors' settings (review.ts): made again against the files now, as the admin. */
  const reviews =
    options.review &&
    reviewRoutes({
      review: options.review,
      audit: options.audit,
      scope: settingsScope,
      prefix: 'settings/',
      async view(change) {
        const config = options.config();
        const found = config && (await readSettingsFiles(config));
        const planned = found && (await plan(found, { changes: JSON.parse(change.text) as unknown }));
        const save = planned && 'save' in planned ? planned.save : undefined;
        return {
          kind: 'save',
          name: 'settings',
          stale: !found || found.version !== change.base,
          diff: save ? diffOf(save) : '',
          ...(found && save ? { changes: await settingsChangesInWords(found.config, found.file, save.changed) } : {}),
        };
      },
      async apply(context, change) {
        const config = options.config();
        if (!config) {
          sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
          return false;
        }
        await serialiseWrites(settingsFilePaths(config), async () => {
          const found = await current(context);
          if (!found) return;
          if (found.version !== change.base) return answerStale(context, 'settings');
          const held = { ...context, body: async () => ({ changes: JSON.parse(change.text) as unknown }) };
          const save = await planned(held, found);
          if (save) await commit(context, found, save, 'settings', { review: change.id });
        });
        return context.response.statusCode === 200;
      },
      auditOf: async () => ({ file: options.config()?.file ?? 'site.config.yaml' }),
    });

  /**
   * Writes a save's files, rebuilds (a build that fails puts them back: 422), audits, keeps the
   * texts it replaced as a version, publishes and answers.
   */
  async function commit(
    context: AdminRequest,
    found: SettingsFiles,
    save: SettingsSave,
    action: string,
    detail: Record<string, unknown> = {},
  ) {
    for (const { file, text } of save.steps) await writeFileAtomic(file, text);
    const files = [...save.changed.keys()];
    const outcome: SaveOutcome = options.afterWrite ? await options.afterWrite(files) : { rebuilt: false };
    if (outcome.rebuilt && !outcome.ok) {
      // The site does not build with it: the files go back to what they were, in the reverse order.
      for (const file of files.reverse()) await writeFileAtomic(file, save.changed.get(file)!.before);
      await options.afterWrite?.([...save.changed.keys()]);
      return sendJson(context.response, 422, {
        errors: outcome.errors.map((error) => ({
          path: error.field ?? null,
          message: error.message,
          line: error.line ?? null,
          column: error.column ?? null,
        })),
      });
    }
    const after = settingsVersion(found, (file, text) => save.changed.get(file)?.after ?? text);
    await options.audit.append({
      user: context.session.email,
      action,
      oldHash: found.version,
      newHash: after,
      paths: save.paths,
      ...detail,
    });
    const before = Object.fromEntries(
      [...save.changed].map(([file, texts]) => [projectPath(found.config.root, file), texts.before]),
    );
    await options.history?.record('settings', settingsItem, context.session.email, summaryOf(save.paths), before);
    const git = await publish(context, found.config, save);
    sendJson(
      context.response,
      200,
      {
        version: after,
        diff: diffOf(save),
        changes: await settingsChangesInWords(found.config, found.file, save.changed),
        ...outcome,
        ...(git ? { git } : {}),
      },
      { etag: `"${after}"` },
    );
  }

  /**
   * The settings' versions (history.ts): a restore writes back each file the version kept that
   * is still a settings file (never another path), checked as a save is.
   */
  const history =
    options.history &&
    historyRoutes({
      history: options.history,
      kind: 'settings',
      address: 'settings',
      role: 'admin',
      async open(context) {
        const found = await current(context);
        return (
          found && {
            item: settingsItem,
            files: Object.fromEntries(
              [...settingsFileTexts(found)].map(([file, text]) => [projectPath(found.config.root, file), text]),
            ),
          }
        );
      },
      async restore(context, version) {
        const config = options.config();
        if (!config)
          return sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
        await serialiseWrites(settingsFilePaths(config), async () => {
          const found = await current(context);
          if (!found) return;
          if (found.version !== ifMatch(context))
            return sendJson(
              context.response,
              409,
              { error: 'stale', version: found.version },
              { etag: `"${found.version}"` },
            );
          const changed = new Map<string, { before: string; after: string }>();
          const paths: string[] = [];
          for (const [file, before] of settingsFileTexts(found)) {
            const after = version.files[projectPath(found.config.root, file)];
            if (after === undefined || after === before) continue;
            changed.set(file, { before, after });
            const keys = changedKeys(parseDocument(before).toJS(), parseDocument(after).toJS());
            paths.push(
              ...(file === found.file ? keys : keys.map((key) => `${projectPath(found.config.root, file)}:${key}`)),
            );
          }
          if (!changed.size)
            return sendJson(context.response, 400, {
              error: 'unchanged',
              message: 'the settings files are already as this version has them',
            });
          const problems = checkConfigText(changed.get(found.file)?.after ?? found.text, found.config);
          if (problems.length) return sendJson(context.response, 422, { errors: problems });
          // The files in the order a save writes them: page copy and names first, the config last.
          const steps = [...changed]
            .sort(([a], [b]) => Number(a === found.file) - Number(b === found.file))
            .map(([file, { after }]) => ({ file, text: after }));
          await commit(context, found, { steps, changed, paths }, 'restore', { version: version.id });
        });
      },
      async describe(before, after) {
        const config = options.config();
        if (!config) return [];
        const changed = new Map(
          Object.keys(after)
            .filter((path) => (before[path] ?? '') !== after[path])
            .map((path) => [resolve(config.root, path), { before: before[path] ?? '', after: after[path]! }]),
        );
        return settingsChangesInWords(config, resolve(process.cwd(), config.file), changed);
      },
    });

  return [read, diff, update, ...(history ?? []), ...(reviews || [])];
}

/** The If-Match version of a request, without quotes. */
export function ifMatch(context: AdminRequest): string | undefined {
  const value = context.request.headers['if-match'];
  return typeof value === 'string' && value.trim() ? value.trim().replace(/^W\//, '').replace(/^"|"$/g, '') : undefined;
}
