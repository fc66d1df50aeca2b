/**
 * Where a build is published, when that is not `site.origin`: a preview deploy, or the same site at
 * another address. From the `--origin` flag, else `SITE_ORIGIN`, else the preview variables the
 * hosts set (Netlify: `CONTEXT` deploy-preview or branch-deploy with `DEPLOY_PRIME_URL`; Vercel:
 * `VERCEL_ENV=preview` with `VERCEL_URL`). A preview is kept out of search engines: every page gets
 * `noindex` and robots.txt disallows everything. `SITE_PREVIEW=1` marks any build as a preview, and
 * `SITE_PREVIEW=0` none (pure: the environment is passed in).
 */
import { SiteError } from '../errors.js';

/** How a build is published. */
export interface DeploySettings {
  /** The origin pages name instead of `site.origin`. */
  origin?: string;
  /** Where the origin came from, for messages ("--origin", "SITE_ORIGIN", "Netlify's DEPLOY_PRIME_URL"). */
  originFrom?: string;
  /** Keep every page out of search engines. */
  preview: boolean;
}

const originPattern = /^https?:\/\/[^/\s]+$/;

/** The deploy settings of this environment; throws a SiteError for an origin that is not scheme and host. */
export function deploySettings(env: Readonly<Record<string, string | undefined>>, flag?: string): DeploySettings {
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
      code: 'CONFIG_INVALID',
      message: `the origin from ${from} is not a scheme and host: ${JSON.stringify(value)}`,
      field: 'site.origin',
      hint: 'Give it as https://example.com, without a path.',
    });
  }
  const preview = env.SITE_PREVIEW === '1' ? true : env.SITE_PREVIEW === '0' ? false : hostPreview;
  return origin === undefined ? { preview } : { origin, originFrom: from, preview };
}
