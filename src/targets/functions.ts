/**
 * The form endpoints a static host answers with a function, and how a function is bundled. An
 * endpoint is one entry of `functionEndpoints`: its name, the path the config gives it, the module
 * of its schema check (the same one `site serve` and the browser use), its limits and result
 * pages. Each host target turns the endpoints into its files (netlify.ts, cloudflare.ts, vercel.ts);
 * esbuild bundles each into one self-contained ES module for web runtimes (no Node modules).
 */
import type { ResolvedConfig } from '../config/load.js';
import { generatorRoot, modulesRoot } from '../cache/disk-cache.js';
import { esbuildErrors, type RunEsbuild } from '../esbuild-step.js';
import { SiteErrors } from '../errors.js';
import { urlsOf } from '../routes/urls.js';
import { contactEndpointLimits } from '../serve/contact.js';
import type { EndpointSettings } from './runtime/web-endpoint.js';

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
    validator: { module: 'lib/contact-schema.js', export: 'validateContact', argument: (config) => config.contact.types },
    limits: contactEndpointLimits,
    resultPages: (config) => Object.fromEntries(config.localeIds.map((locale) => [locale, {
      sent: urlsOf(config).contactResult('sent', locale),
      failed: urlsOf(config).contactResult('failed', locale),
    }])),
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
    return [{
      endpoint,
      ...(endpoint.validator.argument ? { argument: endpoint.validator.argument(config) } : {}),
      settings: {
        name: endpoint.name,
        path,
        ...endpoint.limits,
        allowedOrigins: [config.site.origin],
        resultPages: endpoint.resultPages(config),
        defaultLocale: config.site.defaultLocale,
        storage: config.output.functions,
      },
    }];
  });
}

/**
 * The source of a function's entry module: it imports the host's wrapper (runtime/hosts.ts, as built
 * into lib/functions/, which an installed package ships in place of its sources) and
 * the endpoints' schema checks, and exports what the host calls. `wrap` is the wrapper's name;
 * with `many` it gets the list of endpoints, else the one endpoint.
 */
export function functionEntry(wrap: 'netlifyFunction' | 'vercelFunction' | 'cloudflareWorker', endpoints: readonly SiteEndpoint[], many = false): string {
  const lines = [`import { ${wrap} } from './lib/functions/hosts.js';`];
  const items = endpoints.map(({ endpoint, settings, argument }, index) => {
    lines.push(`import { ${endpoint.validator.export} as validate${index} } from './${endpoint.validator.module}';`);
    const validate = argument === undefined ? `validate${index}` : `(fields) => validate${index}(fields, ${JSON.stringify(argument)})`;
    return `{ validate: ${validate}, settings: ${JSON.stringify(settings)} }`;
  });
  lines.push(`export default ${wrap}(${many ? `[${items.join(', ')}]` : items[0]});`, '');
  return lines.join('\n');
}

/** Bundles an entry (from `functionEntry`) into one ES module. */
export async function bundleFunction(entry: string, name: string, run?: RunEsbuild): Promise<string> {
  const build = run ?? ((await import('esbuild')).build as RunEsbuild);
  const root = generatorRoot();
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: `${name}.entry.js`, loader: 'js' },
    // zod and the other packages, wherever the package manager put them.
    nodePaths: [modulesRoot()],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
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
