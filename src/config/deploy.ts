/**
 * Where a build is published, when that is not `site.origin`: a preview deploy, or the same site at
 * another address. From the `--origin` flag, else `SITE_ORIGIN`, else the preview variables the
 * hosts set (Netlify: `CONTEXT` deploy-preview or branch-deploy with `DEPLOY_PRIME_URL`; Vercel:
 * `VERCEL_ENV=preview` with `VERCEL_URL`). A preview is kept out of search engines: every page gets
 * `noindex` and robots.txt disallows everything. `SITE_PREVIEW=1` marks any build as a preview, and
 * `SITE_PREVIEW=0` none. The path the site lives under (`site.base`) can be given the same way: the
 * `--base` flag, else `SITE_BASE` (GitHub's configure-pages action names it as `base_path`).
 * Pure: the environment is passed in.
 */
import { SiteError } from '../errors.js';
import { sitePathPrefix } from './schema.js';

/** How a build is published. */
export interface DeploySettings {
  /** The origin pages name instead of `site.origin`. */
  origin?: string;
  /** Where the origin came from, for messages ("--origin", "SITE_ORIGIN", "Netlify's DEPLOY_PRIME_URL"). */
  originFrom?: string;
  /** The path the site is published under instead of `site.base` ("" for the domain's root). */
  base?: string;
  /** Where the base came from ("--base", "SITE_BASE"). */
  baseFrom?: string;
  /** Keep every page out of search engines. */
  preview: boolean;
}

const originPattern = /^https?:\/\/[^/\s]+$/;

/** The deploy settings of this environment; throws a SiteError for an origin that is not scheme and host. */
export function deploySettings(
  env: Readonly<Record<string, string | undefined>>,
  flag?: string,
  baseFlag?: string,
): DeploySettings {
  const netlifyPreview = env.CONTEXT === 'deploy-preview' || env.CONTEXT === 'branch-deploy';
  const vercelPreview = env.VERCEL_ENV === 'preview';
  const hostPreview = netlifyPreview || vercelPreview;
  const candidates: [string | undefined, string][] = [
    [flag, '--origin'],
    [env.SITE_ORIGIN, 'SITE_ORIGIN'],
    [netlifyPreview ? env.DEPLOY_PRIME_URL : undefined, "Netlify's DEPLOY_PRIME_URL"],
    [vercelPreview && env.VERCEL_URL ? `https://${env.VERCEL_URL}` : undefined, "Vercel's VERCEL_URL"],
  ];
  const [value, from] = candidates.find(([candidate]) => candidate !== undefined && candidate !== '') ?? [];
  const origin = value?.replace(/\/+$/, '');
  if (origin !== undefined && !originPattern.test(origin)) {
    throw new SiteError({
      code: 'OPTION_INVALID',
      message: `the origin from ${from} is not a scheme and host: ${JSON.stringify(value)}`,
      field: 'site.origin',
      hint: 'Give it as https://example.com, without a path.',
    });
  }
  const preview = env.SITE_PREVIEW === '1' ? true : env.SITE_PREVIEW === '0' ? false : hostPreview;
  return { ...(origin === undefined ? {} : { origin, originFrom: from }), ...basePathOf(env, baseFlag), preview };
}

/** The base path from `--base` or `SITE_BASE`, trailing slashes dropped ("/" is the domain's root). */
function basePathOf(
  env: Readonly<Record<string, string | undefined>>,
  flag: string | undefined,
): Pick<DeploySettings, 'base' | 'baseFrom'> {
  const [value, from] =
    flag !== undefined ? [flag, '--base'] : env.SITE_BASE !== undefined ? [env.SITE_BASE, 'SITE_BASE'] : [];
  if (value === undefined) return {};
  const base = value.trim().replace(/\/+$/, '');
  if (!sitePathPrefix.safeParse(base).success) {
    throw new SiteError({
      code: 'OPTION_INVALID',
      message: `the base path from ${from} is not a path such as /my-site: ${JSON.stringify(value)}`,
      field: 'site.base',
      hint: 'Give the path the site is published under, starting with "/" (letters, digits, ".", "_", "~", "-" per segment), or "/" for the domain\'s root.',
    });
  }
  return { base, baseFrom: from };
}
