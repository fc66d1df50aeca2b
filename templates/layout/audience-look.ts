/**
 * What sets each audience's pages apart besides their copy: the icon of each feature (keyed by
 * the feature ids of the product pages; the audience home lists the same features in the same
 * order), the icons of the step and offer lists, and where the 92-million-tons claim is shown.
 * The accent colour of each audience is in main.css (`[data-audience]`).
 */
import type { Page, SiteContext } from 'typed-site/template';
import type { IconName } from './Icon';

/** The icon of each product feature, by its id in content/pages/<audience>/product. */
export const featureIcons: Record<string, IconName> = {
  'order-management': 'clipboard-list',
  'sms-updates': 'message-square-text',
  analytics: 'chart-column',
  invoicing: 'receipt-text',
  'online-order-module': 'monitor-smartphone',
  // Plan features (plans[].features in site.config.yaml) that the launch page shows.
  'online-orders': 'monitor-smartphone',
  'customer-history': 'users',
  'shop-claims': 'store',
  'ai-agent': 'bot',
  'claim-repair-portal': 'store',
  'hub-integration': 'link',
  'billing-credit-notes': 'wallet',
  'bulk-orders': 'boxes',
  'qr-repairs': 'qr-code',
  'co2-savings': 'leaf',
  'cost-control': 'trending-up',
};

/** Each audience's features in the order its home page and quote list them. */
export const audienceFeatures: Record<string, readonly string[]> = {
  hub: ['order-management', 'sms-updates', 'analytics', 'invoicing', 'online-order-module', 'ai-agent'],
  shop: ['claim-repair-portal', 'hub-integration', 'analytics', 'billing-credit-notes'],
  workwear: ['bulk-orders', 'qr-repairs', 'co2-savings', 'cost-control'],
};

/** The icons of an audience's feature list, in order (no icons for a page without an audience). */
export function featureIconsOf(audience: string | undefined): IconName[] {
  return (audience ? (audienceFeatures[audience] ?? []) : []).map((id) => featureIcons[id] ?? 'badge-check');
}

/** Icons of the fixed lists of other pages, in the order of their items. */
export const listIcons = {
  quoteSteps: ['calendar-check', 'clipboard-list', 'file-check'],
  quoteOnboarding: 'graduation-cap',
  launchSteps: ['calendar-check', 'settings', 'rocket'],
  values: ['recycle', 'handshake', 'eye', 'scissors'],
} satisfies Record<string, IconName | IconName[]>;

/**
 * The three-step story an audience's home tells after its hero, when it has one: how a claim
 * travels for retailers, scan → nearest repairer → back in service for workwear. The words are
 * in the messages (`illustrations.flow`, `illustrations.journey`).
 */
const audienceFlows: Record<string, { messages: string; icons: readonly IconName[] }> = {
  shop: { messages: 'illustrations.flow', icons: ['store', 'scissors', 'receipt-text'] },
  workwear: { messages: 'illustrations.journey', icons: ['scan-line', 'map-pin', 'shirt'] },
};

/** The flow of an audience's home page in the page's language, or undefined. */
export function flowOf(audience: string | undefined, site: SiteContext) {
  const flow = audience ? audienceFlows[audience] : undefined;
  if (!flow) return undefined;
  return {
    heading: site.t(`${flow.messages}.heading`),
    steps: flow.icons.map((icon, index) => ({
      icon,
      title: site.t(`${flow.messages}.step${index + 1}.title`),
      text: site.t(`${flow.messages}.step${index + 1}.text`),
    })),
  };
}

/**
 * Whether a page shows the 92-million-tons band: where the claim is the point (the landing page,
 * the generic story) and for workwear, whose product measures CO₂ saved; not on every page.
 */
export function showsWasteClaim(page: Page): boolean {
  if (page.template === 'Landing') return true;
  if (page.template === 'OurStory') return !page.audience;
  return page.audience === 'workwear';
}
