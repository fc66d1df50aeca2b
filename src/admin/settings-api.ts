/**
 * The settings of `site.config.yaml` that marketers own, for admins: `GET /api/admin/settings` →
 * `{ values, version }` (the editable subset; the version is the hash of the file, also the ETag);
 * `PUT /api/admin/settings` `{ changes: [{ path: "booking.url", value }] }` with `If-Match` → 200
 * `{ version, diff, …rebuild }` | 409 stale | 422 `{ errors: [{ path, message, line, column }] }`;
 * `POST /api/admin/settings/diff` with the same body → `{ diff }` (or 422) without saving.
 *
 * Only the paths of `editableSettings` may change (routes, locales, audiences, navigation, paths,
 * output and aliases stay developer-only). A change is made in place in the file's text
 * (config-edit.ts: every other byte kept), the new text is checked by the config's own loader
 * (the zod schema and the cross-field checks, so the errors are those `site check` gives, with
 * the line and column in the new text), then written atomically, logged and rebuilt. A rebuild
 * that fails puts the old text back and answers 422 with the build's errors.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ResolvedConfig } from '../config/load.js';
import { parseConfig } from '../config/load.js';
import { collectSiteErrors } from '../errors.js';
import { devUser, type AdminRequest, type AdminRoute } from './api.js';
import { writeFileAtomic } from './atomic-file.js';
import type { AuditLog } from './audit-log.js';
import { ConfigEditError, editConfigText, type ConfigChange, type ConfigValue } from './config-edit.js';
import { publishToGit, type GitOutcome } from './git-publish.js';
import { sendJson } from './http.js';
import { createKeyedQueue, versionOf } from './post-files.js';
import type { SaveOutcome } from './posts-api.js';

/** The dotted paths an admin may change; list indexes as numbers ("plans.1.ordersPerMonth"). */
export const editableSettings: readonly RegExp[] = [
  /^company\.(?:legalName|orgNumber|email)$/,
  /^company\.address\.(?:street|postalCode|city|country)$/,
  /^company\.social\.(?:linkedin|instagram)$/,
  /^company\.openingHours\.(?:opens|closes)$/,
  /^booking\.(?:url|minutes)$/,
  /^plans\.\d+\.(?:name\.[a-z]{2,3}|ordersPerMonth|users|highlighted|signupUrl|price\.amount)$/,
  /^roi\.timeSavedShare$/,
  /^roi\.inputs\.(?:ordersPerMonth|minutesPerOrder|hourlyWage|revenuePerRepair)\.(?:default|min|max|step)$/,
  /^contact\.endpoint$/,
  /^collections\.[a-z0-9-]+\.(?:pageSize|wordsPerMinute)$/,
];

/** The editable subset of a config, as the settings page shows it. */
export function editableValues(config: ResolvedConfig) {
  const { company, booking, roi, contact } = config;
  return {
    company: { legalName: company.legalName, orgNumber: company.orgNumber, email: company.email, address: company.address, social: company.social, openingHours: { opens: company.openingHours.opens, closes: company.openingHours.closes } },
    booking: { url: booking.url ?? null, minutes: booking.minutes },
    plans: config.plans.map((plan) => ({ id: plan.id, name: plan.name, ordersPerMonth: plan.ordersPerMonth, users: plan.users ?? null, price: plan.price, highlighted: plan.highlighted, signupUrl: plan.signupUrl ?? null })),
    roi: { timeSavedShare: roi.timeSavedShare, inputs: roi.inputs },
    contact: { endpoint: contact.endpoint },
    collections: Object.fromEntries(Object.entries(config.collections).map(([id, settings]) => [id, { pageSize: settings.pageSize, wordsPerMinute: settings.wordsPerMinute }])),
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

/** The changes of a request body; throws a message for a body that is not a list of { path, value }. */
export function changesFromBody(body: Record<string, unknown>): { changes: ConfigChange[]; errors: SettingsError[] } {
  const list = body.changes;
  if (!Array.isArray(list) || list.length === 0 || list.length > 200) throw new Error('send { "changes": [{ "path": "booking.url", "value": … }] } with 1 to 200 changes');
  const changes: ConfigChange[] = [];
  const errors: SettingsError[] = [];
  for (const item of list as unknown[]) {
    const { path, value } = (typeof item === 'object' && item !== null ? item : {}) as { path?: unknown; value?: unknown };
    if (typeof path !== 'string' || !/^[\w-]+(?:\.[\w-]+)*$/.test(path)) throw new Error('each change needs a dotted "path" such as "plans.1.ordersPerMonth"');
    if (!(value === null || ['string', 'number', 'boolean'].includes(typeof value)) || (typeof value === 'number' && !Number.isFinite(value))) throw new Error(`the value of ${path} must be a string, a number, true, false or null`);
    if (typeof value === 'string' && value.length > 2000) throw new Error(`the value of ${path} is longer than 2000 characters`);
    if (!editableSettings.some((pattern) => pattern.test(path))) {
      errors.push({ path, message: `${path} is not edited here: a developer changes it in site.config.yaml`, line: null, column: null });
      continue;
    }
    changes.push({ path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), value: value as ConfigValue });
  }
  return { changes, errors };
}

/** Options of the settings routes. */
export interface SettingsRoutesOptions {
  config(): ResolvedConfig | undefined;
  audit: AuditLog;
  /** After a write (serve: rebuild and publish; dev leaves it to the watcher). */
  afterWrite?(file: string): Promise<SaveOutcome>;
}

/** A unified diff of the config's text before and after, with one line of context. */
export function settingsDiff(file: string, before: string, after: string): string {
  return createTwoFilesPatch(file, file, before, after, '', '', { context: 1 }).replace(/^(?:Index: .*\n)?=+\n/, '');
}

/** The routes of /api/admin/settings. */
export function createSettingsRoutes(options: SettingsRoutesOptions): AdminRoute[] {
  const serialise = createKeyedQueue();

  /** The config file (absolute), its display name and text; answered 503 and undefined while the site has not been built. */
  const current = async (context: AdminRequest) => {
    const config = options.config();
    if (!config) {
      sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
      return undefined;
    }
    const file = resolve(process.cwd(), config.file);
    const text = await readFile(file, 'utf8');
    return { config, file, text, version: versionOf(text) };
  };

  /**
   * Commits (and pushes) the config when `publish.git.commit` says so (as the posts do), and logs
   * the outcome; undefined when publishing to git is off.
   */
  async function publish(context: AdminRequest, config: ResolvedConfig, file: string, paths: readonly string[]): Promise<GitOutcome | undefined> {
    const settings = config.publish.git;
    if (!settings.commit) return undefined;
    const email = context.session.email;
    const author = email === devUser.email ? undefined : { name: email.slice(0, email.indexOf('@')), email };
    const outcome = await publishToGit({ root: config.root, file, author, message: `content(settings): update ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}` }, settings);
    await options.audit.append({ user: email, action: outcome.error ? 'git-failed' : 'git-commit', file: config.file, commit: outcome.commit ?? null, pushed: outcome.pushed, ...(outcome.error ? { error: outcome.error } : {}) });
    return outcome;
  }

  /** The new text of the changes (and the paths they change), checked as `site check` checks it; answers 400/422 and gives undefined when it cannot be used. */
  const edited = async (context: AdminRequest, config: ResolvedConfig, text: string): Promise<{ next: string; paths: string[] } | undefined> => {
    let parsed: ReturnType<typeof changesFromBody>;
    try {
      parsed = changesFromBody(await context.body());
    } catch (error) {
      sendJson(context.response, 400, { error: 'invalid_body', message: (error as Error).message });
      return undefined;
    }
    if (parsed.errors.length) {
      sendJson(context.response, 422, { errors: parsed.errors });
      return undefined;
    }
    let next: string;
    try {
      next = editConfigText(text, parsed.changes);
    } catch (error) {
      const path = error instanceof ConfigEditError ? error.path.join('.') : null;
      sendJson(context.response, 422, { errors: [{ path, message: (error as Error).message, line: null, column: null }] });
      return undefined;
    }
    const problems = checkConfigText(next, config);
    if (problems.length) {
      sendJson(context.response, 422, { errors: problems });
      return undefined;
    }
    return { next, paths: parsed.changes.map((change) => change.path.join('.')) };
  };

  const read: AdminRoute = {
    method: 'GET',
    pattern: /^settings$/,
    role: 'admin',
    async handle(context) {
      const found = await current(context);
      if (!found) return;
      // The values as the file now has them (with the config's defaults); the last build's while the file does not load.
      let values: ReturnType<typeof editableValues>;
      try {
        values = editableValues(parseConfig(found.text, found.config.file, found.config.root, { templates: templatesOf(found.config) }));
      } catch {
        values = editableValues(found.config);
      }
      sendJson(context.response, 200, { values, version: found.version, file: found.config.file }, { etag: `"${found.version}"` });
    },
  };

  const diff: AdminRoute = {
    method: 'POST',
    pattern: /^settings\/diff$/,
    role: 'admin',
    async handle(context) {
      const found = await current(context);
      if (!found) return;
      const result = await edited(context, found.config, found.text);
      if (!result) return;
      sendJson(context.response, 200, { diff: settingsDiff(found.config.file, found.text, result.next), version: found.version });
    },
  };

  const update: AdminRoute = {
    method: 'PUT',
    pattern: /^settings$/,
    role: 'admin',
    async handle(context) {
      const expected = ifMatch(context);
      if (!expected) return sendJson(context.response, 428, { error: 'if_match_required', message: 'send the version you are editing in If-Match' });
      const config = options.config();
      if (!config) return sendJson(context.response, 503, { error: 'not_ready', message: 'the site has not been built yet' });
      await serialise(config.file, async () => {
        const found = await current(context);
        if (!found) return;
        if (found.version !== expected) return sendJson(context.response, 409, { error: 'stale', version: found.version }, { etag: `"${found.version}"` });
        const result = await edited(context, found.config, found.text);
        if (!result) return;
        const { next, paths } = result;
        await writeFileAtomic(found.file, next);
        const after = versionOf(next);
        const outcome: SaveOutcome = options.afterWrite ? await options.afterWrite(found.file) : { rebuilt: false };
        if (outcome.rebuilt && !outcome.ok) {
          // The site does not build with it: the file goes back to what it was.
          await writeFileAtomic(found.file, found.text);
          await options.afterWrite?.(found.file);
          return sendJson(context.response, 422, { errors: outcome.errors.map((error) => ({ path: error.field ?? null, message: error.message, line: error.line ?? null, column: error.column ?? null })) });
        }
        await options.audit.append({ user: context.session.email, action: 'settings', oldHash: found.version, newHash: after });
        const git = await publish(context, found.config, found.file, paths);
        sendJson(context.response, 200, { version: after, diff: settingsDiff(found.config.file, found.text, next), ...outcome, ...(git ? { git } : {}) }, { etag: `"${after}"` });
      });
    },
  };

  return [read, diff, update];
}

/** The If-Match version of a request, without quotes. */
function ifMatch(context: AdminRequest): string | undefined {
  const value = context.request.headers['if-match'];
  return typeof value === 'string' && value.trim() ? value.trim().replace(/^W\//, '').replace(/^"|"$/g, '') : undefined;
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
    return errors.map((found) => ({ path: found.field ?? null, message: found.message, line: found.line ?? null, column: found.column ?? null, ...(found.hint ? { hint: found.hint } : {}) }));
  }
}
