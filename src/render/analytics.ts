/**
 * The config's own third parties, `analytics:` and `head:`, as head tags and the CSP origins they
 * need: they go the way the site plugins' tags go (plugin-head.ts), so there is one path from a
 * tag to the policy. A counter that sets cookies is not tagged itself: the consent banner's script
 * (islands/consent.ts) is, and loads the counter once the visitor agrees.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { HeadTag } from '../config/plugin-api.js';
import type { AnalyticsConfig, HeadConfig } from '../config/schema.js';
import { consentFiles, needsConsent } from '../islands/consent.js';

/** Origins the policy allows beyond those a tag's own src or href shows. */
export interface ExtraSources {
  scriptSrc: string[];
  connectSrc: string[];
  imgSrc: string[];
  frameSrc: string[];
}

/** The tags of every public page and the origins they need besides their own. */
export interface ThirdParties {
  tags: HeadTag[];
  csp: ExtraSources;
}

/**
 * Where GA4 loads from and reports to, as Google's CSP guide for Google Analytics 4 lists them
 * (developers.google.com/tag-platform/security/guides/csp).
 */
const ga4Sources = {
  scriptSrc: ['https://*.googletagmanager.com'],
  connectSrc: ['https://*.analytics.google.com', 'https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  imgSrc: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
};

/** The origin of an address on another site, undefined for a path of the site itself. */
function originOf(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? new URL(url).origin : undefined;
}

const none = (): ExtraSources => ({ scriptSrc: [], connectSrc: [], imgSrc: [], frameSrc: [] });

/** The third parties of a config, or undefined without `analytics:` and `head:` (the pages are then as they were). */
export function thirdPartiesOf(config: Pick<ResolvedConfig, 'analytics' | 'head'>): ThirdParties | undefined {
  if (!config.analytics && !config.head) return undefined;
  const parties: ThirdParties = { tags: [], csp: none() };
  if (config.analytics) addAnalytics(config.analytics, needsConsent(config), parties);
  if (config.head) addHead(config.head, parties);
  return parties;
}

function addAnalytics(analytics: AnalyticsConfig, consent: boolean, { tags, csp }: ThirdParties): void {
  const add = (list: string[], url: string | undefined) => {
    const origin = url && originOf(url);
    if (origin) list.push(origin);
  };
  if (analytics.provider === 'plausible') {
    tags.push({ tag: 'script', attrs: { defer: true, 'data-domain': analytics.domain, src: analytics.script } });
    add(csp.connectSrc, analytics.script);
    return;
  }
  const data =
    analytics.provider === 'counter'
      ? Object.fromEntries(Object.entries(analytics.data).map(([name, value]) => [`data-${name}`, value]))
      : {};
  if (analytics.provider === 'counter') add(csp.connectSrc, analytics.endpoint ?? analytics.script);
  if (analytics.provider === 'counter' && !consent) {
    tags.push({ tag: 'script', attrs: { defer: true, src: analytics.script, ...data } });
    return;
  }
  // Waits for consent: the banner's script loads the counter, so script-src names its origin here.
  const attrs: Record<string, string | boolean> = { defer: true, src: consentFiles.script.url };
  if (analytics.provider === 'ga4') {
    attrs['data-load'] = `https://www.googletagmanager.com/gtag/js?id=${analytics.measurementId}`;
    attrs['data-gtag'] = analytics.measurementId;
    for (const key of ['scriptSrc', 'connectSrc', 'imgSrc'] as const) csp[key].push(...ga4Sources[key]);
  } else {
    attrs['data-load'] = analytics.script;
    if (Object.keys(data).length) attrs['data-attrs'] = JSON.stringify(data);
    add(csp.scriptSrc, analytics.script);
  }
  tags.push({ tag: 'link', attrs: { rel: 'stylesheet', href: consentFiles.stylesheet.url } }, { tag: 'script', attrs });
}

function addHead(head: HeadConfig, { tags, csp }: ThirdParties): void {
  for (const { tag, ...attributes } of head.tags) {
    const attrs: Record<string, string | boolean> = {};
    for (const [name, value] of Object.entries(attributes))
      if (value !== undefined) attrs[name] = value as string | boolean;
    tags.push({ tag, attrs });
  }
  for (const key of ['scriptSrc', 'connectSrc', 'imgSrc', 'frameSrc'] as const) csp[key].push(...head.csp[key]);
}
