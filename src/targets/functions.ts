/**
 * The form endpoints a static host answers with a function, and how a function is bundled. An
 * endpoint is one entry of `functionEndpoints`: its name, the path the config gives it, the module
 * of its schema check (the same one `site serve` and the browser use), its limits and result
 * pages. Each host target turns the endpoints into its files (netlify.ts, cloudflare.ts, vercel.ts);
 * esbuild bundles each into one self-contained ES module for web runtimes (no Node modules).
 */
import type { ResolvedConfig } from '../config/load.js';
import { slotRulesOf } from '../booking/rules.js';
import { builtInBookingAnswered, builtInBookingOf } from '../config/booking.js';
import { generatorRoot, modulesRoot } from '../cache/disk-cache.js';
import { copyValuesOf, lookupMessage, type MessageTree } from '../content/messages.js';
import { esbuildErrors, type RunEsbuild } from '../esbuild-step.js';
import { SiteErrors } from '../errors.js';
import { urlsOf } from '../routes/urls.js';
import { bookingEndpointLimits } from '../forms/booking.js';
import { contactEndpointLimits } from '../forms/contact.js';
import type { BookingEndpointSettings } from './runtime/booking-endpoint.js';
import type { EndpointSettings, HostNotifications } from './runtime/web-endpoint.js';

/** A form endpoint the host functions answer. */
export interface FunctionEndpoint {
  name: string;
  /** The path the site's forms post to, or undefined when the config sends them elsewhere (a form service). */
  path(config: ResolvedConfig): string | undefined;
  /**
   * The schema check: a module of the generator (relative to its root, built into lib/ by
   * scripts/build-lib.js) and the function it exports, called with the submitted fields and, when given, `argument` of the config (as JSON).
   */
  validator: { module: string; export: string; argument?(config: ResolvedConfig): unknown };
  limits: { maxBytes: number; rateLimit: number; rateWindowMs: number };
  /** Where a plain form POST lands, per locale. */
  resultPages(config: ResolvedConfig): EndpointSettings['resultPages'];
}

/** A path on the site (not a form service's address). */
const sitePath = (endpoint: string) => (endpoint.startsWith('/') ? endpoint : undefined);

/** The endpoints, in the order their functions are written. */
export const functionEndpoints: readonly FunctionEndpoint[] = [
  {
    name: 'contact',
    path: (config) => sitePath(config.contact.endpoint),
    validator: {
      module: 'lib/contact-schema.js',
      export: 'validateContact',
      argument: (config) => config.contact.types,
    },
    limits: contactEndpointLimits,
    resultPages: (config) =>
      Object.fromEntries(
        config.localeIds.map((locale) => [
          locale,
          {
            sent: urlsOf(config).contactResult('sent', locale),
            failed: urlsOf(config).contactResult('failed', locale),
          },
        ]),
      ),
  },
];

/** An endpoint of this site, with the settings its function is built with. */
export interface SiteEndpoint {
  endpoint: FunctionEndpoint;
  settings: EndpointSettings;
  /** What the validator is called with besides the fields (the site's enquiry types), if anything. */
  argument?: unknown;
}

/** The endpoints this site's forms post to on the site itself. */
export function siteEndpoints(config: ResolvedConfig): SiteEndpoint[] {
  return functionEndpoints.flatMap((endpoint): SiteEndpoint[] => {
    const path = endpoint.path(config);
    if (!path) return [];
    return [
      {
        endpoint,
        ...(endpoint.validator.argument ? { argument: endpoint.validator.argument(config) } : {}),
        settings: {
          name: endpoint.name,
          path,
          ...endpoint.limits,
          allowedOrigins: [config.site.origin],
          resultPages: endpoint.resultPages(config),
          defaultLocale: config.site.defaultLocale,
          storage: {
            forwardUrlEnv: config.output.functions.forwardUrlEnv,
            kvBinding: config.output.functions.kvBinding,
          },
          ...hostNotificationsOf(config),
        },
      },
    ];
  });
}

/**
 * The settings of the booking function, when this build has one: the built-in booking on a host
 * whose functions answer it (`output.functions.booking`, see config/booking.ts), else undefined.
 * The calendar file's words come from `messages` (the build's; without them, the site's name).
 */
export function siteBooking(
  config: ResolvedConfig,
  messages?: Readonly<Record<string, MessageTree>>,
): BookingEndpointSettings | undefined {
  const builtIn = builtInBookingOf(config);
  if (!builtIn || config.output.target === 'node' || !builtInBookingAnswered(config)) return undefined;
  const urls = urlsOf(config);
  const values = { ...copyValuesOf(config), company: config.site.name };
  const message = (locale: string, key: string) =>
    (messages?.[locale] && lookupMessage(messages[locale]!, key, values)) || config.site.name;
  return {
    name: 'booking',
    path: builtIn.booking.endpoint,
    ...bookingEndpointLimits,
    allowedOrigins: [config.site.origin],
    resultPages: Object.fromEntries(
      config.localeIds.map((locale) => [
        locale,
        { booked: urls.bookingResult('booked', locale), failed: urls.bookingResult('failed', locale) },
      ]),
    ),
    defaultLocale: config.site.defaultLocale,
    rules: slotRulesOf(config),
    days: builtIn.booking.days,
    domain: new URL(config.site.origin).hostname,
    organizer: builtIn.email,
    calendarText: Object.fromEntries(
      config.localeIds.map((locale) => [
        locale,
        {
          summary: message(locale, 'booking.calendarSummary'),
          description: message(locale, 'booking.calendarDescription'),
        },
      ]),
    ),
    database: { urlEnv: config.output.functions.databaseUrlEnv, d1Binding: config.output.functions.d1Binding },
    ...hostNotificationsOf(config),
  };
}

/**
 * The webhooks of `notifications:` as a function is built with them: a URL of the config as it is
 * (it is in the config file already), a `{ env }` one read from the host's variables at run time.
 * E-mail is `site serve`'s only: a function has no SMTP.
 */
function hostNotificationsOf(config: ResolvedConfig): { notify?: HostNotifications } {
  const webhooks = config.notifications?.webhooks ?? [];
  return webhooks.length ? { notify: { webhooks, site: config.site.origin } } : {};
}

/** Where the booking function's store is: a D1 binding (Cloudflare) or the database URL in a variable (Netlify, Vercel). */
export type BookingStoreKind = 'd1-store' | 'url-store';

/** How the runtime opens each kind of store: its module in lib/functions/ and the function it exports. */
const bookingStores: Record<BookingStoreKind, string> = { 'd1-store': 'openD1Store', 'url-store': 'openUrlStore' };

/**
 * The source of a function's entry module: it imports the host's wrapper (runtime/hosts.ts, as built
 * into lib/functions/, which an installed package ships in place of its sources) and
 * the endpoints' schema checks, and exports what the host calls. `wrap` is the wrapper's name;
 * with `many` it gets the list of endpoints, else the one endpoint.
 */
export function functionEntry(
  wrap: 'netlifyFunction' | 'vercelFunction' | 'vercelNodeFunction' | 'cloudflareWorker',
  endpoints: readonly SiteEndpoint[],
  many = false,
  booking?: { settings: BookingEndpointSettings; store: BookingStoreKind },
): string {
  const lines = [`import { ${wrap}${booking ? ', createBookingEndpoint' : ''} } from './lib/functions/hosts.js';`];
  const items = endpoints.map(({ endpoint, settings, argument }, index) => {
    lines.push(`import { ${endpoint.validator.export} as validate${index} } from './${endpoint.validator.module}';`);
    const validate =
      argument === undefined ? `validate${index}` : `(fields) => validate${index}(fields, ${JSON.stringify(argument)})`;
    return `{ validate: ${validate}, settings: ${JSON.stringify(settings)} }`;
  });
  if (booking) {
    const open = bookingStores[booking.store];
    lines.push(`import { ${open} } from './lib/functions/${booking.store}.js';`);
    items.push(
      `{ path: ${JSON.stringify(booking.settings.path)}, handle: createBookingEndpoint(${JSON.stringify(booking.settings)}, ${open}) }`,
    );
  }
  lines.push(`export default ${wrap}(${many ? `[${items.join(', ')}]` : items[0]});`, '');
  return lines.join('\n');
}

/**
 * Bundles an entry (from `functionEntry`) into one ES module: for web runtimes (no Node modules),
 * or with `platform: 'node'` for a function that runs on Node (the booking's Postgres driver
 * needs its sockets), Node's own modules left as imports.
 */
export async function bundleFunction(
  entry: string,
  name: string,
  run?: RunEsbuild,
  platform: 'neutral' | 'node' = 'neutral',
): Promise<string> {
  const build = run ?? ((await import('esbuild')).build as RunEsbuild);
  const root = generatorRoot();
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: `${name}.entry.js`, loader: 'js' },
    // zod and the other packages, wherever the package manager put them.
    nodePaths: [modulesRoot()],
    bundle: true,
    format: 'esm',
    platform,
    mainFields: ['module', 'main'],
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  }).catch((error: { errors?: import('esbuild').Message[] }) => {
    if (error.errors?.length) throw new SiteErrors(esbuildErrors(error.errors, 'ASSET_BUILD'));
    throw error;
  });
  return result.outputFiles[0]!.text;
}
