/**
 * The one definition of `site.config.yaml`. TypeScript types are inferred from this schema;
 * defaults live here. Cross-field checks (a route that names an audience must name a real one)
 * run afterwards in `check.ts`, which still reports YAML positions.
 */
import { z } from 'zod';
import { sanitizeExtensionSchema } from './sanitize.js';
import { declaredSettingsSchema } from './settings-schema.js';

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use lowercase letters, digits and hyphens');
const localeId = z.string().regex(/^[a-z]{2,3}$/, 'use a two- or three-letter language code such as "en"');
const sitePath = z
  .string()
  .regex(
    /^\/(?:[\p{Ll}\p{N}-]+(?:\/[\p{Ll}\p{N}-]+)*)?$/u,
    'start with "/", use lowercase segments, no trailing slash',
  );
const routePath = z
  .string()
  .regex(
    /^\/(?:(?:[a-z0-9-]+|\{slug\})(?:\/(?:[a-z0-9-]+|\{slug\}))*)?$/,
    'start with "/", use lowercase segments, no trailing slash',
  );
/** A path prefix such as "/mendwise" or "/docs/v2" (the case GitHub keeps in a repository's name), or "" for none. */
export const sitePathPrefix = z
  .string()
  .regex(
    /^(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._~-]+)*$/,
    'start with "/", no trailing slash, such as "/docs"; leave it out for the domain\'s root',
  );
/** A web address a page links to: http or https only (`javascript:` or `data:` would run in the visitor's browser). */
const webUrl = z.url({ protocol: /^https?$/, error: 'use an http:// or https:// address' });

/** Whether the runtime knows an IANA time zone by this name (the site's days and the booking's slots are counted in it). */
function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Text given once per locale, e.g. `{ en: Repairers, no: Reparatører }`. */
const perLocale = z.record(localeId, z.string().min(1));

/** Whether the runtime knows an ISO 4217 currency code (prices are formatted with Intl.NumberFormat); checked in load.ts, with a hint. */
export function isKnownCurrency(code: string): boolean {
  return Intl.supportedValuesOf('currency').includes(code);
}
/** The hosts `site build --target` writes for (src/targets/); `node` is `site serve`'s own output. */
export const hostTargets = ['node', 'netlify', 'cloudflare', 'vercel', 'github-pages'] as const;

/**
 * The address of a third party's script, stylesheet or endpoint: https, or http on localhost (a
 * counter run on this machine), or a path on the site itself ("/count.js"). Plain http elsewhere
 * could be rewritten on the way, and the CSP would have to allow it.
 */
const thirdPartyUrl = z
  .string()
  .regex(
    /^(?:https:\/\/[a-z0-9.-]+(?::\d+)?|http:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?)(?:\/[^\s"<>]*)?$|^\/(?!\/)[^\s"<>]*$/i,
    'use an https:// address (http:// only on localhost) or a path on this site such as "/count.js"',
  );
/** An origin the CSP allows, as Content-Security-Policy writes it: https (a `*.` subdomain wildcard allowed), or http on localhost. */
const cspOrigin = z
  .string()
  .regex(
    /^(?:https:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d+)?|http:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?)$/,
    'give an origin such as https://widget.example.com (scheme and host, no path), https only but for http://localhost',
  );

/** The third-party counters `analytics:` knows; see render/analytics.ts for the tags and CSP origins of each. */
const analyticsSchema = z
  .discriminatedUnion('provider', [
    z.strictObject({
      provider: z.literal('plausible'),
      domain: z
        .string()
        .regex(/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/, "give the site's domain as Plausible knows it, such as example.com")
        .describe("The site's domain in Plausible"),
      script: thirdPartyUrl
        .default('https://plausible.io/js/script.js')
        .describe("The script's address; another for a self-hosted Plausible (its events go to the same origin)"),
    }),
    z.strictObject({
      provider: z.literal('counter'),
      script: thirdPartyUrl.describe(
        "The counter's script, such as https://stats.example.com/script.js (a self-hosted Umami, Matomo, GoatCounter…)",
      ),
      endpoint: thirdPartyUrl
        .optional()
        .describe("Where the script sends its counts, when not to the script's own origin"),
      data: z
        .record(
          z.string().regex(/^[a-z][a-z0-9-]*$/, 'name a data attribute in lowercase, such as website-id'),
          z.string(),
        )
        .default({})
        .describe('data-* attributes of the script tag, such as { website-id: … } for Umami'),
      cookies: z
        .boolean()
        .default(false)
        .describe(
          'Whether the counter sets cookies: then it loads only after the visitor agrees in the consent banner',
        ),
    }),
    z.strictObject({
      provider: z.literal('ga4'),
      measurementId: z
        .string()
        .regex(/^G-[A-Z0-9]{4,}$/, 'give the measurement ID of the GA4 data stream, such as G-ABC123XYZ')
        .describe('The measurement ID of the GA4 data stream'),
    }),
  ])
  .optional()
  .describe(
    'A counter on every public page (never the admin), the CSP widened by exactly its origins. Plausible and a counter without cookies load at once; GA4 (and a counter with cookies: true) only after the visitor agrees in a consent banner (copy: consent.* in content/messages/), reopened from the footer. Without it: no third party, no banner',
  );

const headAttribute = (name: string) => z.string().max(500).optional().describe(`The ${name} attribute`);
/** A tag of `head.tags`: an external script (never inline: the CSP forbids it), a link or a meta. */
const headTagSchema = z.discriminatedUnion('tag', [
  z.strictObject({
    tag: z.literal('script'),
    src: thirdPartyUrl.describe("The script's address; its origin is allowed in script-src"),
    async: z.boolean().optional(),
    defer: z.boolean().optional(),
    type: z.literal('module').optional(),
    crossorigin: z.enum(['anonymous', 'use-credentials']).optional(),
    content: z
      .unknown()
      .refine(
        (content) => content === undefined,
        'an inline script is not allowed (the CSP forbids inline scripts): publish it as a file under public/ and give its src',
      )
      .optional(),
  }),
  z.strictObject({
    tag: z.literal('link'),
    rel: z.string().regex(/^[a-z-]+(?: [a-z-]+)*$/, 'give link types such as preconnect or stylesheet'),
    href: thirdPartyUrl,
    as: headAttribute('as'),
    type: headAttribute('type'),
    crossorigin: z.enum(['anonymous', 'use-credentials']).optional(),
  }),
  z.strictObject({
    tag: z.literal('meta'),
    name: headAttribute('name'),
    property: headAttribute('property'),
    content: z.string().max(2000),
  }),
]);

const localeSchema = z.strictObject({
  label: z.string().describe('Name of the language in itself, e.g. "Norsk"'),
  short: z.string().describe('Short label for the language buttons, e.g. "NO"'),
  prefix: z.union([z.literal(''), sitePath]).describe('URL prefix: "" for the default locale, e.g. "/no"'),
  hreflang: z.string(),
  htmlLang: z.string().describe('Value of <html lang>'),
  dir: z
    .enum(['ltr', 'rtl'])
    .default('ltr')
    .describe('Writing direction: rtl (Arabic, Hebrew, Persian) gives its pages <html dir="rtl">'),
  ogLocale: z.string().describe('Open Graph locale, e.g. nb_NO'),
  intl: z.string().describe('Locale for dates and money, e.g. nb-NO'),
  browserLanguages: z
    .array(
      z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*$/, 'use a language tag or its start, such as "nb" or "pt-BR"'),
    )
    .default([])
    .describe('navigator.language prefixes that redirect a first visit here'),
});

const audienceSchema = z.strictObject({
  path: sitePath,
  label: perLocale,
  contactType: slug
    .optional()
    .describe(
      'Preselected enquiry type ("I am a") on this audience\'s contact page, one of contact.types; without it the choice starts empty',
    ),
  accent: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'give a colour as #rrggbb')
    .optional()
    .describe(
      "Background of the social images (og:image) of this audience's pages; without it site.themeColor. White text goes on it, so pick a dark colour",
    ),
});

/** The route path of a navigation item for an audience: ("/{audience}/blog", "/hub") → "/hub/blog". */
export function navigationRoutePath(pattern: string, audiencePath: string): string {
  return pattern.replace('{audience}', audiencePath.slice(1));
}

const navigationItemSchema = z.strictObject({
  label: z.string().describe('Key under `nav:` in content/messages/<locale>.yaml'),
  path: z.string().regex(/^\/\{audience\}(?:\/[a-z0-9-]+)*$/, 'start with "/{audience}"'),
  fallback: sitePath.optional().describe('Target when no audience is active; without it the item is shown inactive'),
});

const routeSchema = z.strictObject({
  path: z
    .union([routePath, z.record(localeId, routePath)])
    .describe(
      "The route's path (/about), or its path in each locale without the locale's prefix ({ en: /about, no: /om-oss }, the default locale's included: the same as path: /about with paths: { no: /om-oss })",
    ),
  template: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'use the PascalCase name of a file in templates/pages/'),
  content: z
    .string()
    .regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/)
    .optional()
    .describe('Folder under content/pages/ with the page copy'),
  audience: z.string().optional(),
  locale: localeId.optional().describe('Only for pages that exist in one language, at this exact path'),
  alternate: routePath.optional().describe('Path of the same page in another language (single-locale routes)'),
  list: slug.optional().describe('Name of a collection this route lists (with its term and page subpages)'),
  entry: slug.optional().describe('Name of a collection with one page per entry at this path ({slug})'),
  paths: z
    .record(localeId, routePath)
    .optional()
    .describe(
      "The path of this route in other locales, without their prefix (no: /om-oss makes /about /no/om-oss there); the routes and collection pages under it follow. An entry route keeps its {slug}: /blogg/{slug}. The same as giving path: a map of every locale's path; not beside one",
    ),
  noindex: z.boolean().default(false),
});

/** The front-matter fields of every collection entry. */
export const builtInEntryFields: readonly string[] = [
  'title',
  'description',
  'date',
  'updated',
  'image',
  'draft',
  'slug',
];

const fieldName = z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'use a camelCase field name');

/** The types a collection's field may have. */
export const entryFieldTypes = [
  'string',
  'number',
  'boolean',
  'date',
  'markdown',
  'select',
  'list',
  'object',
  'image',
  'reference',
] as const;

/**
 * A front-matter field a collection declares beyond the ones every entry has. The keys a type
 * needs (`options` of a select, `of` of a list, `fields` of an object, `collection` of a reference)
 * are checked with the config's other cross-field rules (load.ts), at their line.
 */
const entryFieldSchema = z.strictObject({
  type: z.enum(entryFieldTypes).default('string'),
  required: z.boolean().default(true),
  label: z
    .string()
    .min(1)
    .optional()
    .describe("The field's label in the admin's form (default: the admin copy's, else the field's name in words)"),
  options: z.array(slug).min(1).optional().describe('The values a select field accepts'),
  labels: z
    .string()
    .regex(/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/, 'give a dotted message key such as team.roles')
    .optional()
    .describe('Message key under which each option of a select has its name in each locale (<labels>.<option>)'),
  get of() {
    return z
      .union([z.enum(['string', 'number']), z.record(fieldName, entryFieldSchema)])
      .optional()
      .describe('What a list holds: string, number, or the fields of an object ({ name: { type: string } })');
  },
  get fields() {
    return z.record(fieldName, entryFieldSchema).optional().describe('The fields of an object field');
  },
  collection: slug.optional().describe('The collection whose entry a reference field names by its slug'),
});

/** A field a collection declares, as the config gives it after its defaults. */
export type EntryField = z.output<typeof entryFieldSchema>;

const collectionSchema = z.strictObject({
  folder: z
    .string()
    .regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/)
    .optional()
    .describe("Folder under content/ with one folder per entry (default: the collection's name)"),
  fields: z
    .record(fieldName, entryFieldSchema)
    .default({})
    .describe('Front matter besides title, description, date, updated, image and draft'),
  data: z
    .boolean()
    .default(false)
    .describe(
      'A data collection (team members, testimonials): no route lists it or gives its entries pages, and its entries need no date or description; templates read them through site.entries',
    ),
  taxonomy: z
    .strictObject({
      field: z
        .string()
        .regex(/^[a-z][A-Za-z0-9]*$/)
        .describe('Front-matter field that holds the term, e.g. category'),
      terms: z.array(slug).min(1),
      path: z
        .union([slug, z.record(localeId, slug)])
        .default('category')
        .describe(
          "Segment of the term pages: <list>/<path>/<term>; or one per locale ({ en: sector, no: bransje }, the default locale's included), as a route's path",
        ),
      labels: z
        .string()
        .regex(/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/, 'give a dotted message key such as blog.categories')
        .optional()
        .describe(
          'Message key under which each term has its name in each locale (<labels>.<term>), used by the feeds; default <collection>.terms',
        ),
    })
    .optional()
    .describe('One list page per term, and a required front-matter field naming the term'),
  pageSize: z.number().int().positive().default(10),
  pagePath: slug.default('page').describe('Segment of further list pages: <list>/<pagePath>/2'),
  wordsPerMinute: z.number().int().positive().default(200),
  feed: z
    .union([
      z.boolean(),
      z.string().regex(/^\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.xml$/, 'give a path ending in .xml, such as /rss.xml'),
    ])
    .default(false)
    .describe(
      "An RSS feed and a JSON Feed per locale of the entries written in it: true puts the RSS feed at <list>/rss.xml, a path puts it there (under each locale's prefix); the JSON Feed is beside it (feed.json beside rss.xml, else the same name ending in .json); their title and description are the messages <collection>.title and <collection>.description",
    ),
  feedItems: z
    .number()
    .int()
    .positive()
    .default(20)
    .describe(
      'How many of the newest entries each feed lists (RSS and JSON Feed; the JSON Feed carries their full text)',
    ),
  fallback: z
    .record(localeId, z.array(localeId))
    .default({})
    .describe(
      'Per locale, the languages to show an untranslated entry in, in order; by default the default locale, then the others',
    ),
});

const aliasSchema = z.strictObject({
  locale: localeId,
  from: sitePath.describe('Path (without locale prefix) whose pages are mirrored'),
  to: sitePath.describe('Second path (without locale prefix) that serves the same pages'),
});

/**
 * An old address that is not a page any more, sent on to where its page lives now: an exact path
 * (its locale prefix included; a rename in the admin writes one per locale), or an address elsewhere.
 */
const redirectSchema = z.strictObject({
  from: z
    .string()
    .regex(
      /^(?!.*\/\.{1,2}(?:\/|$))\/[^\s?#]*$/,
      'give a path starting with "/", without spaces, "?", "#" or "." and ".." segments',
    )
    .describe('The old path, exactly, its locale prefix included ("/no/blogg/gammel"); a trailing slash is optional'),
  to: z
    .string()
    .regex(
      /^(?:\/[^\s?]*|https:\/\/[^\s/?#]+(?:[/?#]\S*)?)$/,
      'give a path of the site starting with "/", or an https:// address',
    )
    .describe(
      'A page of the site (checked against the built pages, in every locale), or an https:// address (not checked)',
    ),
  status: z
    .literal([301, 302, 307, 308], { error: 'use 301, 302, 307 or 308' })
    .default(301)
    .describe('301 (moved for good, the default), 302, 307 or 308'),
});

/** A price per period in any ISO 4217 currency, or "on-request" for a plan whose price is agreed in talks. */
const priceSchema = z.union([
  z.strictObject({
    amount: z.number().nonnegative(),
    currency: z.string().describe('ISO 4217 code of the currency, such as EUR, USD or NOK'),
    period: z
      .enum(['month', 'year'])
      .describe('What the amount pays for; the pages say it with the messages pricing.perMonth or pricing.perYear'),
  }),
  z.literal('on-request'),
]);

/**
 * A plugin as the config names it: a package name (resolved from the site's folder) or a path
 * relative to the config file (starting with ./ or ../), alone or with its options.
 */
const pluginSpecifier = z
  .string()
  .regex(
    /^(?:\.{1,2}\/.+|(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]+)?)$/,
    'give a package name such as remark-emoji, or a path starting with ./ or ../',
  );
const pluginEntry = z.union([pluginSpecifier, z.tuple([pluginSpecifier, z.record(z.string(), z.unknown())])]);

const planSchema = z.strictObject({
  id: slug,
  name: perLocale,
  limits: z
    .record(
      z.string().regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'name a limit with letters and digits, such as ordersPerMonth'),
      z.union([z.number().nonnegative(), z.literal('unlimited')]),
    )
    .default({})
    .describe(
      "What the plan allows, by a name the site's templates read (ordersPerMonth: 50, users: unlimited); the site declares in admin.settings which of them the admin edits",
    ),
  price: priceSchema,
  highlighted: z.boolean().default(false),
  signupUrl: webUrl
    .optional()
    .describe(
      "Where this plan's call to action signs the visitor up (e.g. the app's sign-up page); without it the button opens the contact form with the plan preselected",
    ),
  features: z
    .array(slug)
    .default([])
    .describe(
      'What this plan adds to the plan before it (plans are cumulative, in this order); each id is named by the message planFeatures.<id>',
    ),
});

/** The name of an environment variable, where a secret (a password, a token in a URL) is read from. */
const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'use the name of an environment variable, such as SMTP_URL');
/** An address a notification is POSTed to: https, or http on localhost (a receiver on the same machine). */
const webhookUrl = z
  .string()
  .regex(
    /^(?:https:\/\/[^\s/]+|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?)(?:\/\S*)?$/i,
    'use an https:// address (http:// only on localhost), or { env: NAME } for one that holds a token',
  );
/** An SMTP server's address without its password: smtp:// or smtps://, user and host, no password. */
const smtpUrl = z
  .string()
  .regex(
    /^smtps?:\/\/(?:[^\s:@/]+@)?[^\s:@/]+(?::\d+)?\/?$/,
    'use smtp://user@host:587 or smtps://user@host:465, without the password: it goes in the environment (passwordEnv)',
  );
const emailAddress = z.email({ error: 'use an e-mail address, such as team@example.com' });

/** `notifications:`: who is told of each new contact message and booking, and how (src/notify/). */
const notificationsSchema = z
  .strictObject({
    webhooks: z
      .array(
        z.union([
          webhookUrl,
          z
            .strictObject({ env: envName })
            .describe('A webhook URL read from this environment variable (a URL with a token is a secret)'),
        ]),
      )
      .default([])
      .describe(
        'Addresses each new contact message and booking is POSTed to as JSON (a timeout and a few retries): by `site serve` and by the form functions of the static hosts',
      ),
    email: z
      .strictObject({
        smtp: z
          .union([
            z
              .strictObject({ env: envName })
              .describe('The whole smtp:// or smtps:// URL, password included, in this variable'),
            z.strictObject({
              url: smtpUrl.describe('The server and user, without the password'),
              passwordEnv: envName.optional().describe('The variable holding the password'),
            }),
          ])
          .describe('The SMTP server `site serve` sends through; its password only ever in the environment'),
        from: z
          .string()
          .min(3)
          .max(200)
          .regex(/@/, 'use an address, or a name and an address: "Mendwise <hello@mendwise.example>"')
          .describe('The sender of every mail: an address, or "Name <address>"'),
        to: z.array(emailAddress).min(1).describe('The team: who is mailed each new contact message and booking'),
      })
      .optional()
      .describe(
        'E-mail from `site serve`: each new message and booking to the team, and a booked visitor a confirmation in their language with the meeting as an .ics file',
      ),
  })
  .optional()
  .describe(
    'Tell the team of each new contact message and booking (webhooks, e-mail) and confirm a booking to the visitor by e-mail; secrets come from the environment. A failed delivery is logged and shown in the inbox, to retry',
  );

const weekday = z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
const clock = z.string().regex(/^\d{2}:\d{2}$/, 'use HH:MM');

export const configSchema = z.strictObject({
  paths: z
    .strictObject({
      content: z.string().default('content'),
      templates: z.string().default('templates'),
      public: z.string().default('public'),
    })
    .prefault({})
    .describe('Folders of the site, relative to this file'),
  site: z.strictObject({
    name: z.string().min(1),
    origin: z.url().regex(/^https?:\/\/[^/]+$/, 'give scheme and host only, without a trailing slash'),
    base: sitePathPrefix
      .default('')
      .describe(
        'Path the site is published under, e.g. "/my-site" for a GitHub Pages project site; every link, asset, feed and sitemap URL starts with it. Empty for the domain\'s root',
      ),
    defaultLocale: localeId.default('en'),
    themeColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .default('#0f5132'),
    timeZone: z
      .string()
      .refine(isKnownTimeZone, 'use an IANA time zone such as Europe/Oslo')
      .default('UTC')
      .describe(
        "IANA time zone the site's days are counted in: an entry dated after today appears at 00:00 of its date here (scheduled posts)",
      ),
  }),
  locales: z.record(localeId, localeSchema),
  audiences: z
    .record(slug, audienceSchema)
    .default({})
    .describe('Groups of visitors with pages of their own; without any, pages carry no audience handling'),
  navigation: z
    .array(navigationItemSchema)
    .default([])
    .describe('Header items per audience; without any, pages carry no menu script'),
  routes: z.array(routeSchema).min(1),
  aliases: z.array(aliasSchema).default([]),
  redirects: z
    .array(redirectSchema)
    .default([])
    .describe(
      'Old paths that are not pages any more and where they go now, written for every host target; renaming a post in the admin adds its old paths here',
    ),
  plans: z.array(planSchema).default([]),
  company: z
    .strictObject({
      legalName: z.string(),
      address: z.strictObject({
        street: z.string(),
        postalCode: z.string(),
        city: z.string(),
        country: z.string().length(2),
      }),
      orgNumber: z.string().optional().describe('The organisation number; the Organization JSON-LD gives it as taxID'),
      email: z.email(),
      social: z
        .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'name a link in lowercase, such as linkedin or mastodon'), webUrl)
        .default({})
        .describe(
          'Profiles of the company by name (linkedin, mastodon, github…): the Organization JSON-LD lists them as sameAs',
        ),
      openingHours: z
        .strictObject({ days: z.array(weekday).min(1), opens: clock, closes: clock, timeZone: z.string() })
        .optional()
        .describe('When the company answers; the built-in booking offers slots in these hours'),
    })
    .optional()
    .describe('The company behind the site; without it pages carry no Organization JSON-LD'),
  contact: z
    .strictObject({
      endpoint: z
        .string()
        .regex(/^(\/[^\s]*|https?:\/\/[^\s]+)$/, 'use a path such as /api/contact or an http(s):// address')
        .default('/api/contact')
        .describe('Where the contact form posts; any form service works'),
      dataDir: z.string().default('data').describe('Folder where `site serve` stores submissions'),
      results: z
        .strictObject({ sent: sitePath.default('/contactus/sent'), failed: sitePath.default('/contactus/failed') })
        .prefault({})
        .describe('Route paths of the pages a plain form POST lands on (the form works without JavaScript)'),
      types: z
        .array(slug)
        .default([])
        .refine((types) => new Set(types).size === types.length, 'list each enquiry type once')
        .describe(
          'The enquiry types the form offers ("I am a"), in display order, each named by the message contactForm.types.<type>; without any the form asks for none. A visitor who picks none is stored as `other` when it is listed',
        ),
    })
    .prefault({}),
  booking: z
    .strictObject({
      url: webUrl
        .optional()
        .describe(
          'External booking page for meetings; without it the book-meeting pages offer the built-in booking, answered by `site serve` (or, with output.functions.booking, by the netlify, cloudflare or vercel functions)',
        ),
      minutes: z.number().int().positive().max(240).default(30),
      timeZone: z
        .string()
        .refine(isKnownTimeZone, 'use an IANA time zone such as Europe/Oslo')
        .default('Europe/Oslo')
        .describe("Time zone of the built-in booking's slots; the days and hours are company.openingHours"),
      days: z
        .number()
        .int()
        .min(1)
        .max(90)
        .default(21)
        .describe('How many days ahead the built-in booking offers slots'),
      endpoint: z
        .string()
        .regex(/^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*$/, 'use a path such as /api/booking')
        .default('/api/booking')
        .describe('Path of the built-in booking API on this site (slots at <endpoint>/slots)'),
      results: z
        .strictObject({
          booked: sitePath.default('/book-meeting/booked'),
          failed: sitePath.default('/book-meeting/failed'),
        })
        .prefault({})
        .describe('Route paths of the pages a booking form sent without JavaScript lands on'),
    })
    .optional()
    .describe(
      "Meetings: a booking provider's page (url) or the built-in booking; without it the site has no booking endpoints",
    ),
  notifications: notificationsSchema,
  storage: z
    .strictObject({
      url: z
        .string()
        .regex(
          /^(postgres|postgresql|libsql):\/\/\S+$/,
          'use a postgres:// address (or libsql://); leave it out for the SQLite file in contact.dataDir',
        )
        .optional()
        .describe(
          'The database `site serve` stores messages, bookings, accounts, sessions and the audit log in: a postgres:// address when a team outgrows one server. The environment variable DATABASE_URL wins over it; without either, the SQLite file <contact.dataDir>/site.db. Keep a password out of this file: put it in DATABASE_URL',
        ),
    })
    .prefault({})
    .describe('Where what visitors and admins write is stored'),
  data: z
    .record(z.string(), z.unknown())
    .default({})
    .describe(
      "The site's own facts, in any shape: templates read them as site.data, checked by the `data` schema that templates/layout/Layout.tsx exports",
    ),
  output: z
    .strictObject({
      dir: z
        .string()
        .min(1)
        .default('dist')
        .describe('Folder `site build` writes the site into, relative to this file (`--out` overrides it)'),
      target: z
        .enum(hostTargets)
        .default('node')
        .describe(
          'The host the output is for (`--target` overrides it): node (`site serve`), netlify, cloudflare, vercel or github-pages; each gets the headers, redirects, 404 rules and form functions it reads',
        ),
      precompress: z
        .boolean()
        .optional()
        .describe(
          'Write .br and .gz siblings of HTML, CSS, JS, XML, SVG and TXT files, for hosts (and `site serve`) that send them as they are; by default only for the node target (CDNs compress themselves and ignore them)',
        ),
      preloadFonts: z
        .array(
          z
            .string()
            .regex(
              /\.(?:woff2|woff|ttf|otf)$/,
              'name a font file, such as @fontsource/inter/files/inter-latin-400-normal.woff2',
            ),
        )
        .default([])
        .describe(
          'Font files the stylesheet uses above the fold, named as its url() does (a package path such as @fontsource/inter/files/inter-latin-400-normal.woff2, or ./path from this file): every page preloads them (at the hashed URL the stylesheet gives them), so the text swaps to them before the first paint',
        ),
      socialImages: z
        .boolean()
        .default(true)
        .describe(
          "Draw a social image (og:image, 1200×630 PNG, `_social/`) for every page: title, audience accent and site name, in the page's language; cached by what each card shows",
        ),
      functions: z
        .strictObject({
          forwardUrlEnv: z
            .string()
            .regex(/^[A-Z_][A-Z0-9_]*$/, 'use the name of an environment variable, such as SITE_FORM_WEBHOOK')
            .default('SITE_FORM_WEBHOOK')
            .describe(
              'Environment variable of the host holding a webhook URL that each accepted submission is POSTed to as JSON',
            ),
          kvBinding: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'use the name of a binding, such as SUBMISSIONS')
            .default('SUBMISSIONS')
            .describe(
              'Cloudflare: the KV namespace binding each accepted submission is stored in (one key per submission)',
            ),
          booking: z
            .boolean()
            .default(false)
            .describe(
              'Answer the built-in booking on netlify, cloudflare and vercel with a function backed by the store (a D1 database on Cloudflare, the database at databaseUrlEnv elsewhere); without it their book-meeting pages offer the contact form',
            ),
          databaseUrlEnv: z
            .string()
            .regex(/^[A-Z_][A-Z0-9_]*$/, 'use the name of an environment variable, such as DATABASE_URL')
            .default('DATABASE_URL')
            .describe(
              "Netlify and Vercel: the environment variable of the host holding the booking function's database, a postgres:// URL",
            ),
          d1Binding: z
            .string()
            .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'use the name of a binding, such as DB')
            .default('DB')
            .describe('Cloudflare: the D1 database binding the booking function stores into'),
        })
        .prefault({})
        .describe(
          'How the form functions of the netlify, cloudflare and vercel targets keep a submission, and whether they answer the built-in booking',
        ),
    })
    .prefault({})
    .describe('What `site build` writes besides the pages'),
  admin: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe(
          "Build the browser admin's pages (/auth, /admin/blog, /admin/pages, /admin/inbox, /admin/changes, /admin/settings: engine pages in the default locale, noindex, disallowed in robots.txt); false builds none of them",
        ),
      copy: z
        .array(
          z.strictObject({
            content: z
              .string()
              .regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/, 'name a folder under content/pages/, such as hub/pricing'),
            keys: z
              .array(
                z
                  .string()
                  .regex(/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/, 'give a dotted key of the copy, such as addon.heading'),
              )
              .min(1),
          }),
        )
        .default([])
        .describe(
          "Page copy the settings page (/admin/settings) offers besides the config: texts of content/pages/<content>/<locale>.yaml by dotted key, in every language (the pricing page's add-on, say)",
        ),
      settings: declaredSettingsSchema,
      locked: z
        .array(
          z.strictObject({
            content: z
              .string()
              .regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/, 'name a folder under content/pages/, such as hub/pricing'),
            keys: z
              .array(
                z
                  .string()
                  .regex(/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/, 'give a dotted key of the copy, such as hero.heading'),
              )
              .min(1),
          }),
        )
        .default([])
        .describe(
          'Page copy the page editor (/api/admin/pages) shows but does not let anyone change: texts of content/pages/<content>/<locale>.yaml by dotted key (and every key below it), in every language. Every other key of every page is open to editors',
        ),
      review: z
        .boolean()
        .default(false)
        .describe(
          "Hold an editor's save of a published entry for review: the site keeps the published version until an admin approves the change (GET /api/admin/reviews, POST …/reviews/<id>/approve or …/reject, each audited with an optional note). New entries, drafts and admins' saves are written as before",
        ),
    })
    .prefault({})
    .describe('What the browser admin offers'),
  publish: z
    .strictObject({
      git: z
        .strictObject({
          commit: z
            .boolean()
            .default(false)
            .describe('Commit each file the admin saves or deletes, authored by the admin who saved it'),
          push: z.boolean().default(false).describe("Push each commit, with the machine's own git credentials"),
          branch: z
            .string()
            .regex(/^\w[\w./-]*$/, 'give a branch name such as main')
            .optional()
            .describe('Commit only while this branch is checked out, and push to it; default: the checked-out branch'),
          remote: z
            .string()
            .regex(/^\w[\w.-]*$/, 'give a remote name such as origin')
            .default('origin')
            .describe('The remote pushed to'),
        })
        .prefault({})
        .describe("Publishing the admin's saves to git (site serve --admin and site dev)"),
    })
    .prefault({})
    .describe('What happens to a save of the admin besides the rebuild'),
  markdown: z
    .strictObject({
      maxBytes: z
        .number()
        .int()
        .positive()
        .default(256 * 1024)
        .describe('Largest Markdown document (post or page copy) in bytes; parsing time grows quickly past this'),
      maxNesting: z
        .number()
        .int()
        .positive()
        .max(1000)
        .default(32)
        .describe('Deepest nesting of block quotes and lists in a Markdown document'),
      maxParagraphMarks: z
        .number()
        .int()
        .positive()
        .default(1000)
        .describe(
          "Most link and emphasis marks ([ ] * _ ~) in one paragraph of a Markdown document; the parser's time grows with the square of their number",
        ),
      remarkPlugins: z
        .array(pluginEntry)
        .default([])
        .describe(
          'remark plugins run on every Markdown document (posts and page copy) after it is parsed (GFM included): a package name or a path relative to this file (./plugins/x.js), or [name or path, options]',
        ),
      rehypePlugins: z
        .array(pluginEntry)
        .default([])
        .describe(
          'rehype plugins run on the HTML tree of every Markdown document before it is sanitised: a package name or a path relative to this file, or [name or path, options]',
        ),
      highlight: z
        .union([
          z.literal(false),
          z.strictObject({
            theme: z
              .string()
              .default('github-light-default')
              .describe(
                'Shiki theme of fenced code (https://shiki.style/themes); check its colours against your background for WCAG AA',
              ),
            darkTheme: z.string().optional().describe('Shiki theme of fenced code under prefers-color-scheme: dark'),
          }),
        ])
        .default({ theme: 'github-light-default' })
        .describe(
          'Fenced code with a language is highlighted at build time by Shiki: classes and a stylesheet, no script, no inline style; false for plain code',
        ),
      sanitize: sanitizeExtensionSchema.optional(),
    })
    .prefault({})
    .describe('Bounds on Markdown documents, checked before they are parsed, and the plugins they go through'),
  legal: z
    .strictObject({
      reviewed: z
        .boolean()
        .default(false)
        .describe(
          'Set to true once the company (with its lawyer) has reviewed the legal pages; until then every build warns',
        ),
      content: z
        .array(z.string().regex(/^[a-z0-9-]+(?:\/[a-z0-9-]+)*$/))
        .default([])
        .describe('Folders under content/pages/ that hold legal text (terms, privacy)'),
    })
    .prefault({})
    .describe('Legal pages ship as templates the company must review before going live'),
  search: z
    .strictObject({
      enabled: z
        .boolean()
        .default(false)
        .describe(
          "Build a static search index (Pagefind) of every page's <main>, one per language, under <base>/pagefind/",
        ),
      path: sitePath
        .default('/search')
        .describe(
          "Route path of the search page (a route of this config, in every locale): only its CSP allows WebAssembly, which the index's script needs",
        ),
      pagesPerPart: z
        .number()
        .int()
        .positive()
        .default(128)
        .describe(
          "A language with more entry pages (posts, a collection's entries) than this has them indexed in parts of at most about this many, each under <base>/pagefind/<language>-<n>/ and merged by the search page: an edit indexes again its post's part, not the whole language",
        ),
    })
    .prefault({})
    .describe(
      'Site search on static hosts: an index per language built with the pages, searched in the browser on the search page',
    ),
  robots: z
    .strictObject({ disallow: z.array(sitePath).default([]).describe('Paths crawlers are asked to skip') })
    .prefault({}),
  collections: z
    .record(slug, collectionSchema)
    .default({})
    .describe(
      'Dated Markdown content (a blog, case studies, events): content/<folder>/<slug>/<locale>.md, listed and shown by the routes that name the collection',
    ),
  analytics: analyticsSchema,
  head: z
    .strictObject({
      tags: z
        .array(headTagSchema)
        .default([])
        .describe(
          "Tags after the generator's own in the head of every public page (never the admin): scripts with src, links, metas",
        ),
      csp: z
        .strictObject({
          scriptSrc: z.array(cspOrigin).default([]),
          connectSrc: z.array(cspOrigin).default([]),
          imgSrc: z.array(cspOrigin).default([]),
          frameSrc: z.array(cspOrigin).default([]),
        })
        .prefault({})
        .describe(
          "Origins the tags need besides their own (a script's and a stylesheet's origin are allowed already): where a chat widget connects, frames or loads images from",
        ),
    })
    .optional()
    .describe(
      'Third-party tags of every public page, such as a chat widget or a tag manager, with the CSP origins they need',
    ),
  build: z
    .strictObject({
      pluginTimeout: z
        .number()
        .positive()
        .max(3600)
        .default(60)
        .describe(
          "Seconds a site plugin's hook (routes, collections, buildEnd) may take before the build fails with PLUGIN_TIMEOUT naming the plugin and the hook",
        ),
    })
    .prefault({})
    .describe('How the build treats the site plugins'),
  plugins: z
    .array(pluginEntry)
    .default([])
    .describe(
      'Plugins made with definePlugin (typed-site/plugin): head tags (the CSP follows them), routes and collections from code, a hook after the build. A package name or a path relative to this file, or [name or path, options]',
    ),
});

/** The config as a marketer writes it. */
export type SiteConfigInput = z.input<typeof configSchema>;
/** The config as the schema validates it: a route's `path` may still be a map of locale → path. */
export type ValidatedConfig = z.output<typeof configSchema>;
/** A route as the schema validates it, before load.ts makes a path map `path` and `paths`. */
export type ValidatedRoute = ValidatedConfig['routes'][number];
/** A route after loading: `path` is the default locale's, `paths` the other locales' (localized-paths.ts). */
export type RouteConfig = Omit<ValidatedRoute, 'path'> & { path: string };
/** The config after validation, with defaults filled in and each route's path in that shape. */
export type SiteConfig = Omit<ValidatedConfig, 'routes'> & { routes: RouteConfig[] };
export type PlanConfig = SiteConfig['plans'][number];
export type LocaleConfig = SiteConfig['locales'][string];
export type AudienceConfig = SiteConfig['audiences'][string];
export type CollectionConfig = SiteConfig['collections'][string];
export type ContactType = string;
export type PlanPrice = PlanConfig['price'];
export type BookingConfig = NonNullable<SiteConfig['booking']>;
/** The `notifications:` part of a config. */
export type NotificationsConfig = NonNullable<SiteConfig['notifications']>;
export type CompanyConfig = NonNullable<SiteConfig['company']>;
export type AnalyticsConfig = NonNullable<SiteConfig['analytics']>;
export type HeadConfig = NonNullable<SiteConfig['head']>;
/** A plugin entry of the config: a package name or a relative path, alone or with options. */
export type PluginEntry = z.input<typeof pluginEntry>;
/** A route as the config (or a plugin's `routes()`) gives it, before defaults. */
export type RouteConfigInput = z.input<typeof routeSchema>;
/** A collection as the config (or a plugin's `collections()`) gives it, before defaults. */
export type CollectionConfigInput = z.input<typeof collectionSchema>;
/** The schemas a plugin's routes and collections are validated with (the config's own). */
export const routeEntrySchema = routeSchema;
export const collectionEntrySchema = collectionSchema;
export type HostTarget = (typeof hostTargets)[number];

/** The JSON Schema of the config, for editors (written to schema/site.config.schema.json). */
export function createConfigJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', target: 'draft-7' }),
    title: 'site.config.yaml',
    description:
      'The structure and facts of a site built by `site`. Generated from src/config/schema.ts by `site schema`.',
  };
}

/** The JSON Schema as the text of the committed file. */
export function formatJsonSchema(): string {
  return `${JSON.stringify(createConfigJsonSchema(), null, 2)}\n`;
}
