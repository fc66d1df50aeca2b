/**
 * Which illustration shows what: the hero visual of the landing page and of each audience's home,
 * and the illustration beside a product feature (by its id). Each kind of page has its own: the
 * app mock-ups (orders, text message, claim portal, garment label, chart) are the product pages',
 * the homes, the landing page and the presentation's slides have drawn scenes. Every one is static
 * SVG rendered with the page: no script, no image request, a fixed size.
 */
import type { ReactNode } from 'react';
import type { SiteContext } from 'typed-site/template';
import { ClaimPortal } from './ClaimPortal';
import { GarmentLabel } from './GarmentLabel';
import { OrderList } from './OrderList';
import { RepairChart } from './RepairChart';
import {
  AgentScene,
  BulkScene,
  Co2Scene,
  CostScene,
  CreditNoteScene,
  IntegrationScene,
  InvoiceScene,
  OnlineOrderScene,
  PlatformScene,
  RepairerHomeScene,
  RetailerHomeScene,
  WorkwearHomeScene,
} from './scenes';
import { SmsPhone } from './SmsPhone';

export { StoryScene } from './scenes';
export {
  PresentationInvoiceScene,
  PresentationOrdersScene,
  PresentationSmsScene,
  PresentationTitleScene,
} from './slides';

/** The workwear label's QR target: this site's page on QR-coded repairs, in the page's language. */
function qrTarget(site: SiteContext): string {
  return encodeURI(`${site.config.site.origin}${site.href('/workwear/product')}#qr-repairs`);
}

/** The hero visual of the home of `audience`, or of the landing page (no audience): where the three meet. */
export function HeroVisual({ audience }: { audience: string | undefined }): ReactNode {
  if (audience === 'hub') return <RepairerHomeScene />;
  if (audience === 'shop') return <RetailerHomeScene />;
  if (audience === 'workwear') return <WorkwearHomeScene />;
  return <PlatformScene />;
}

/** The illustration beside a product feature, when it has one. */
export function featureVisual(featureId: string, site: SiteContext): ReactNode | undefined {
  switch (featureId) {
    case 'order-management':
      return <OrderList site={site} />;
    case 'sms-updates':
      return <SmsPhone site={site} />;
    case 'analytics':
      return <RepairChart site={site} />;
    case 'claim-repair-portal':
      return <ClaimPortal site={site} />;
    case 'qr-repairs':
      return <GarmentLabel site={site} target={qrTarget(site)} />;
    case 'invoicing':
      return <InvoiceScene />;
    case 'online-order-module':
      return <OnlineOrderScene />;
    case 'ai-agent':
      return <AgentScene />;
    case 'hub-integration':
      return <IntegrationScene />;
    case 'billing-credit-notes':
      return <CreditNoteScene />;
    case 'bulk-orders':
      return <BulkScene />;
    case 'co2-savings':
      return <Co2Scene />;
    case 'cost-control':
      return <CostScene />;
    default:
      return undefined;
  }
}
