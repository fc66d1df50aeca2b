/**
 * Errors are data: every problem the generator reports is a `SiteError` with a stable code from
 * the catalogue below, the file and position it is about, the field path, and a hint.
 */

/** The catalogue of error codes: a permanent name, a title, and the default hint. */
export const errorCatalogue = {
  YAML_SYNTAX: { title: 'Invalid YAML', hint: 'Check indentation and quoting around the position shown.' },
  CONFIG_INVALID: {
    title: 'Invalid config value',
    hint: 'See docs/config.md, the section named after the top-level key, for what the field takes.',
  },
  CONFIG_UNKNOWN_KEY: {
    title: 'Unknown config key',
    hint: 'Remove it or fix its spelling; unknown keys are not ignored.',
  },
  CONFIG_LOCALE_MISSING: {
    title: 'Config text missing a language',
    hint: 'Give the text in every locale of `locales:`, such as label: { en: Repairers, no: Reparatører }.',
  },
  OPTION_INVALID: {
    title: 'Invalid origin or base path given to the command',
    hint: 'Give the origin as https://example.com (no path) and the base as a path such as /my-site.',
  },
  CONFIG_NOT_FOUND: {
    title: 'Config file not found',
    hint: 'Run the command in the site folder or pass --config <file>.',
  },
  CONFIG_PLACEHOLDER: {
    title: 'Placeholder company fact',
    hint: 'Replace it with the real value in site.config.yaml before the site goes live; the build still succeeds.',
  },
  BOOKING_FALLBACK: {
    title: 'Booking falls back to the contact form',
    hint: "Set output.functions.booking: true and give the host's function a database, or set booking.url to a booking provider's page.",
  },
  UNKNOWN_TEMPLATE: {
    title: 'Unknown template',
    hint: 'Use the name of a file in templates/pages/ without its extension.',
  },
  UNKNOWN_AUDIENCE: { title: 'Unknown audience', hint: 'Use one of the keys under `audiences:` in site.config.yaml.' },
  UNKNOWN_ROUTE: { title: 'Unknown route', hint: 'Refer to a `path:` listed under `routes:` in site.config.yaml.' },
  UNKNOWN_COLLECTION: {
    title: 'Unknown collection',
    hint: 'Use one of the keys under `collections:` in site.config.yaml.',
  },
  UNKNOWN_LOCALE: { title: 'Unknown locale', hint: 'Use one of the keys under `locales:` in site.config.yaml.' },
  DUPLICATE_ROUTE: { title: 'Duplicate route', hint: 'Each route path may appear once; remove or rename one of them.' },
  PATH_COLLISION: {
    title: 'Two pages claim one URL',
    hint: 'Give one of them another localized path (`paths:` of its route) or slug (`slug:` in its front matter).',
  },
  OUTPUT_COLLISION: {
    title: 'Two pages write the same file',
    hint: 'Change one of the paths or aliases so every page has its own URL.',
  },
  REDIRECT_TARGET_MISSING: {
    title: 'Redirect to no page',
    hint: 'Give the path of a page as it is built, its locale prefix included, or an https:// address.',
  },
  REDIRECT_LOOP: { title: 'Redirects in a loop', hint: 'Point one of the redirects at a page of the site.' },
  REDIRECT_FROM_PAGE: {
    title: 'Redirect from a page',
    hint: 'Remove the redirect, or use aliases: for a second address of a page that stays.',
  },
  REDIRECT_DUPLICATE: { title: 'Path redirected twice', hint: 'Keep one redirect for each old path.' },
  CONTENT_MISSING: {
    title: 'Missing content file',
    hint: 'Create the file, copying the structure of the other locale.',
  },
  CONTENT_INVALID: { title: 'Invalid content', hint: 'Compare the file with the fields the page template expects.' },
  CONTENT_COMPONENT: {
    title: 'Component in Markdown not known, or its attributes wrong',
    hint: 'Name a component of templates/content/ (or one the engine ships: callout, figure, video) and give it the attributes its props schema accepts.',
  },
  CONTENT_UNKNOWN_KEY: {
    title: 'Unknown key in page copy',
    hint: "Remove it or fix its spelling: the page template's `content` schema does not take it.",
  },
  CONTENT_PARITY: {
    title: 'Locales out of step',
    hint: 'Add the key to the other locale so both languages say the same things.',
  },
  FRONT_MATTER: {
    title: 'Invalid front matter',
    hint: 'Front matter is YAML between two `---` lines at the very top of the file.',
  },
  FRONT_MATTER_UNKNOWN_KEY: {
    title: 'Unknown front-matter field',
    hint: 'Remove it or fix its spelling, or declare it under collections.<name>.fields in site.config.yaml.',
  },
  ENTRY_INVALID: {
    title: 'Invalid collection entry',
    hint: 'An entry is a folder <collection>/<slug>/ with one <locale>.md per language it is written in.',
  },
  ENTRY_UNTRANSLATED: {
    title: 'Entry not translated',
    hint: 'Add the missing <locale>.md to the entry folder; until then its pages in that locale show the fallback language (collections.<name>.fallback in site.config.yaml).',
  },
  ENTRY_IMAGE: {
    title: 'Invalid entry image',
    hint: "Name a PNG, JPEG, WebP or AVIF file in the entry's folder under image:, with its text alternative under imageAlt:.",
  },
  ENTRY_FIELD: {
    title: "Invalid value of an entry's field",
    hint: "Give an image field a PNG, JPEG, WebP or AVIF file of the entry's folder with its alt text, and a Markdown field Markdown the parser reads.",
  },
  ENTRY_REFERENCE: {
    title: 'Reference to no entry',
    hint: 'Name the slug (folder name) of an entry of the collection the field refers to.',
  },
  IMAGE_MISSING: {
    title: 'Image file not found',
    hint: 'Put the image next to the Markdown file (names are case-sensitive), or write a site path (/images/x.png) for a file of public/.',
  },
  IMAGE_INVALID: {
    title: 'Invalid image in Markdown',
    hint: 'Use a PNG, JPEG, WebP, AVIF or GIF of at most 5 MB, in the folder of the Markdown file; an SVG can carry script: export it as PNG or WebP, or publish it from public/.',
  },
  IMAGE_SIDECAR: {
    title: 'Invalid image sidecar',
    hint: "An image's <file>.yaml holds alt: { <locale>: text } and focus: { x, y } with x and y between 0 and 1; save it again in the admin's media library.",
  },
  ENTRY_DRAFT: {
    title: 'Draft left out',
    hint: 'Set draft: false in its front matter to publish it, or build with --drafts to see it.',
  },
  MARKDOWN_LIMIT: {
    title: 'Markdown document too large or too deep',
    hint: 'Split the document, flatten the nesting, or raise the limit under markdown: in site.config.yaml.',
  },
  MARKDOWN_FAILED: {
    title: 'Markdown could not be parsed',
    hint: 'Simplify the document around the place shown (deep nesting of quotes, lists or brackets).',
  },
  LINK_BROKEN: {
    title: 'Broken link',
    hint: 'Link to a page the site has (with a fragment, to an id on it), or add an alias or a redirect for the old path.',
  },
  LINK_EXTERNAL: {
    title: 'External link does not answer',
    hint: 'Fix or remove the link; `site check --external` asked the other site and it answered with an error or not at all.',
  },
  PUBLIC_SKIPPED: {
    title: 'File of public/ not published',
    hint: 'Copy the file into public/ instead of linking to it.',
  },
  LEGAL_UNREVIEWED: {
    title: 'Legal text not reviewed',
    hint: 'Have the company review the text with its lawyer, then set legal.reviewed: true in site.config.yaml.',
  },
  ENCODING: {
    title: 'Not UTF-8 text',
    hint: 'Save the file as UTF-8 (without a byte-order mark); bytes that are not UTF-8 show as \uFFFD.',
  },
  TEMPLATE_BUILD: {
    title: 'Template does not compile',
    hint: 'Fix the syntax error in the template at the position shown.',
  },
  TEMPLATE_INVALID: {
    title: 'Invalid template module',
    hint: 'A page template exports a React component as default and a zod `content` schema.',
  },
  RENDER_FAILED: {
    title: 'Page failed to render',
    hint: 'The template threw while rendering, at the line shown; with --verbose, the stack shows how it got there.',
  },
  TEMPLATE_REJECTED: {
    title: 'A template refused the content',
    hint: 'Fix the field named, in the content file shown; the template says what it expects.',
  },
  ASSET_BUILD: { title: 'Asset build failed', hint: 'Fix the CSS or script at the position shown.' },
  EMIT_FAILED: { title: 'Could not write the output', hint: 'Check that the output folder is writable.' },
  OUTPUT_UNSAFE: {
    title: 'Output folder refused',
    hint: 'Pass --out with a new or empty folder, or the folder an earlier `site build` wrote.',
  },
  OUTPUT_BUSY: { title: 'Output folder in use', hint: 'Wait for the other build to finish.' },
  SERVE_FAILED: { title: 'Could not start the server', hint: 'Pass another --port or --host.' },
  ADMIN_USAGE: {
    title: 'Admin command refused',
    hint: 'Run `site admin --help` for the commands and their arguments.',
  },
  PLUGIN_NOT_FOUND: {
    title: 'Plugin not found',
    hint: "Install the package in the site's folder (npm install <name>), or give a path relative to site.config.yaml starting with ./ or ../.",
  },
  PLUGIN_INVALID: {
    title: 'Invalid plugin',
    hint: 'A remark or rehype plugin module exports a function as default; a site plugin exports definePlugin({ name, ... }) from typed-site/plugin.',
  },
  SEARCH_INDEX_FAILED: {
    title: 'Search index not built',
    hint: 'Pagefind (the pagefind package) builds it: check it is installed for this platform, or set search: { enabled: false }.',
  },
  PLUGIN_FAILED: {
    title: 'A plugin failed',
    hint: 'The plugin threw; fix it or its options (the stack, with --verbose, shows where).',
  },
  PLUGIN_TIMEOUT: {
    title: 'A plugin hook did not finish',
    hint: 'Make the hook settle its promise (a request without a timeout waits for ever), or raise build.pluginTimeout (seconds) in site.config.yaml.',
  },
  PLUGIN_EXIT: {
    title: 'A plugin ended the process',
    hint: 'A hook reports a failure by throwing an error, never with process.exit: the build then fails naming the plugin, and nothing is half published.',
  },
  STORE_UNAVAILABLE: {
    title: 'Database unavailable',
    hint: "Check that the database file's folder (contact.dataDir) is writable and its disk not full, or that the Postgres server in DATABASE_URL is up and reachable.",
  },
  STORE_DAMAGED: {
    title: 'Database damaged',
    hint: 'Stop every server on it, move the file aside (keep it: mv site.db site.db.damaged), copy the last file `site db backup` wrote in its place, and check it with `site db status`; with no backup, delete the file to start a new, empty store (the accounts are then made again with site admin add-user).',
  },
  STORE_URL: {
    title: 'Unsupported database address',
    hint: 'Set DATABASE_URL (or storage.url) to a postgres:// address, or leave both unset for the SQLite file in contact.dataDir.',
  },
  BACKUP_REFUSED: {
    title: 'Backup refused',
    hint: 'Name a new file in a folder that exists and that no server publishes, such as backups/site-2026-01-31.db beside the project.',
  },
  STORE_IMPORT: {
    title: 'Old files not imported',
    hint: 'Restore the file named from a backup, or move it away, then start again; nothing is imported until every old file can be read.',
  },
  INBOX_AGE: { title: 'Invalid age', hint: 'Give a whole number of days, weeks or months: 30d, 8w or 12m.' },
  INIT_NOT_EMPTY: { title: 'Folder not empty', hint: 'Name a new or empty folder: `site init my-site`.' },
  INIT_LOCALE: {
    title: 'Invalid language code',
    hint: 'Give two- or three-letter codes separated by commas, the default first: --locales en,no.',
  },
  UNFINISHED: {
    title: 'Command ended before it finished',
    hint: 'Something the command waited on can never finish (a plugin hook or template promise that never settles) or ended the process (process.exit in a plugin); run again with --verbose to see the last stage.',
  },
  UNKNOWN_ISLAND: {
    title: 'Unknown island',
    hint: 'Name a file of templates/islands/ without its extension (`<Island name="Counter">` for templates/islands/Counter.tsx), or an island of the engine.',
  },
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof errorCatalogue;

/** Codes that mean the command was called wrongly (exit code 2) rather than that the site's input is wrong (1). */
const usageCodes: ReadonlySet<ErrorCode> = new Set([
  'OUTPUT_UNSAFE',
  'ADMIN_USAGE',
  'BACKUP_REFUSED',
  'INIT_NOT_EMPTY',
  'INIT_LOCALE',
  'INBOX_AGE',
  'OPTION_INVALID',
]);

/** The exit code for a failed command: 2 when every error is a usage error, else 1. */
export function exitCodeOf(errors: readonly SiteError[]): 1 | 2 {
  return errors.length > 0 && errors.every((error) => usageCodes.has(error.code)) ? 2 : 1;
}

/** Whether a problem stops the build (error), is only reported (warning), or is a note printed with --verbose (info). */
export type Severity = 'error' | 'warning' | 'info';

/** Where in a source file an error is. Lines and columns are 1-based. */
export interface SourcePosition {
  file?: string;
  line?: number;
  column?: number;
}

/** Everything an error can say. */
export interface SiteErrorOptions extends SourcePosition {
  code: ErrorCode;
  message: string;
  /** The dotted field path inside the file, e.g. `routes[3].template`. */
  field?: string;
  /** What to do; defaults to the catalogue's hint for the code. */
  hint?: string;
  /** Default `error`: a warning is reported but does not fail the build; an info is printed only with --verbose. */
  severity?: Severity;
  cause?: unknown;
}

/** A problem with the user's input (config, content, templates), reported without a stack. */
export class SiteError extends Error {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly field?: string;
  readonly hint: string;
  readonly severity: Severity;

  constructor(options: SiteErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SiteError';
    this.code = options.code;
    this.file = options.file;
    this.line = options.line;
    this.column = options.column;
    this.field = options.field;
    this.hint = options.hint ?? errorCatalogue[options.code].hint;
    this.severity = options.severity ?? 'error';
  }

  /** One line: `file:line:col  field  message  (hint)`. */
  format(): string {
    const where = this.file ? [this.file, this.line, this.column].filter((part) => part !== undefined).join(':') : '';
    return [where, this.field, this.message, `(${this.hint})`].filter(Boolean).join('  ');
  }
}

/** Several errors found in one pass, reported together (with the warnings found on the way, which are not in `errors`). */
export class SiteErrors extends Error {
  readonly errors: SiteError[];
  readonly warnings: SiteError[];

  constructor(errors: SiteError[], warnings: readonly SiteError[] = []) {
    super(errors.map((error) => error.format()).join('\n'));
    this.name = 'SiteErrors';
    this.errors = sortErrors(errors);
    this.warnings = sortErrors(warnings);
  }
}

/** Sorts errors by file, then line, then column, so reports are stable. */
export function sortErrors(errors: readonly SiteError[]): SiteError[] {
  return [...errors].sort((a, b) => {
    const fileA = a.file ?? '';
    const fileB = b.file ?? '';
    if (fileA !== fileB) return fileA < fileB ? -1 : 1;
    return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
  });
}

/** Returns the SiteErrors inside any thrown value, or undefined for an unexpected failure. */
export function collectSiteErrors(error: unknown): SiteError[] | undefined {
  if (error instanceof SiteErrors) return error.errors;
  if (error instanceof SiteError) return [error];
  return undefined;
}

/** Throws all errors at once when there are any; warnings among them do not count. */
export function throwIfAny(problems: readonly SiteError[]): void {
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new SiteErrors([...errors]);
}
