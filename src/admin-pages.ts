/**
 * The admin's screens as engine pages: the routes the engine adds to every site whose config does
 * not say `admin: { enabled: false }`, and where their templates, islands, copy and stylesheet
 * live. The screens are TSX files in src/admin/ui/, bundled by esbuild at site-build time with
 * the site's own templates and islands; this module itself imports none of them, so the CLI
 * bundle stays free of React.
 */
import { join } from 'node:path';
import { generatorRoot } from './cache/disk-cache.js';

/** The prefix of an engine template's name: a site's template names are PascalCase, so never clash. */
const enginePrefix = '@admin/';

/**
 * The routes the engine adds, `noindex`: the admin's screens in the site's default locale, and
 * /auth (`everyLocale`) in each of the site's locales, since a site may link to it and a visitor
 * who follows that link should read it in the page's language. Their copy ids are the folders
 * under content/pages/ where a site may put its own copy of a screen (content/pages/auth/no.yaml
 * for /no/auth; without it the engine's English copy).
 */
export const adminRoutes: readonly { path: string; template: string; content: string; everyLocale?: true }[] = [
  { path: '/auth', template: `${enginePrefix}Auth`, content: 'auth', everyLocale: true },
  { path: '/admin/blog', template: `${enginePrefix}AdminBlog`, content: 'admin/blog' },
  { path: '/admin/inbox', template: `${enginePrefix}AdminInbox`, content: 'admin/inbox' },
  { path: '/admin/pages', template: `${enginePrefix}AdminPages`, content: 'admin/pages' },
  { path: '/admin/visual', template: `${enginePrefix}AdminVisual`, content: 'admin/visual' },
  { path: '/admin/media', template: `${enginePrefix}AdminMedia`, content: 'admin/media' },
  { path: '/admin/changes', template: `${enginePrefix}AdminChanges`, content: 'admin/changes' },
  { path: '/admin/settings', template: `${enginePrefix}AdminSettings`, content: 'admin/settings' },
];

/** Where the admin's sign-in API answers (`/api/auth/login`, `/api/auth/logout`). */
export const adminAuthPath = '/api/auth';

/** Where the rest of the admin's API answers (`/api/admin/session`, `/api/admin/posts/…`). */
export const adminApiPath = '/api/admin';

/** The paths under which the admin's API answers every request: no page of a site can be there. */
export const adminApiPaths: readonly string[] = [adminAuthPath, adminApiPath];

/** The paths crawlers are asked to skip while the admin is on (robots.txt). */
export const adminDisallow: readonly string[] = ['/admin', '/auth'];

/** The engine's islands, by the name their pages mark them with. */
export const adminIslandNames: readonly string[] = [
  'AdminChanges',
  'AdminInbox',
  'AdminMedia',
  'AdminPages',
  'AdminSettings',
  'AdminSignIn',
  'AdminVisual',
  'BlogEditor',
];

/** The engine's admin template names (`@admin/<Name>`), sorted. */
export const adminTemplateNames: readonly string[] = adminRoutes.map((route) => route.template).sort();

/** Whether a page template is one of the engine's admin screens rather than the site's own. */
export function isAdminTemplate(name: string): boolean {
  return name.startsWith(enginePrefix);
}

/** The folder of the admin's screens (src/admin/ui of the generator package). */
export function adminUiFolder(): string {
  return join(generatorRoot(), 'src', 'admin', 'ui');
}

/** The file of an engine template: `@admin/AdminBlog` → src/admin/ui/pages/AdminBlog.tsx. */
export function adminTemplateFile(name: string): string {
  return join(adminUiFolder(), 'pages', `${name.slice(enginePrefix.length)}.tsx`);
}

/** The file of an engine island: `BlogEditor` → src/admin/ui/islands/BlogEditor.tsx. */
export function adminIslandFile(name: string): string {
  return join(adminUiFolder(), 'islands', `${name}.tsx`);
}

/**
 * The engine's default copy of a screen in a locale: src/admin/ui/copy/<id>/<locale>.yaml, or the
 * English one for a locale the engine has no copy in (a site may then provide its own).
 */
export function adminCopyFiles(id: string, locale: string): string[] {
  const folder = join(adminUiFolder(), 'copy', id);
  return locale === 'en' ? [join(folder, 'en.yaml')] : [join(folder, `${locale}.yaml`), join(folder, 'en.yaml')];
}
