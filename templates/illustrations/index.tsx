/**
 * Which illustration shows what: the hero visual of the landing page and of each audience's home,
 * and the illustration beside a product feature (by its id). The homes and the product pages show
 * the product itself with each audience's data, its words from `illustrations.*` in the messages;
 * the landing page and the presentation's slides have drawn scenes. Every one is static SVG
 * rendered with the page: no script, no image request, a fixed size.
 */
import type { ReactNode } from 'react';
import type { SiteContext } from 'typed-site/template';
import { AgentChat } from './AgentChat';
import { BulkOrder } from './BulkOrder';
import { ClaimAnalytics } from './ClaimAnalytics';
import { ClaimDocuments } from './ClaimDocuments';
import { ClaimInbox } from './ClaimInbox';
import { ClaimPortal } from './ClaimPortal';
import { ClaimRouting } from './ClaimRouting';
import { GarmentLabel } from './GarmentLabel';
import { Invoice } from './Invoice';
import { KeptInService } from './KeptInService';
import { OnlineBooking } from './OnlineBooking';
import { OrderBoard } from './OrderBoard';
import { OrderList } from './OrderList';
import { RepairChart } from './RepairChart';
import { RepairMap } from './RepairMap';
import { PlatformScene } from './scenes';
import { SiteCosts } from './SiteCosts';
import { SmsPhone } from './SmsPhone';

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

/**
 * The hero visual of the home of `audience`, the product itself with that audience's data (a tailor
 * shop's orders of the day, a fashion brand's claims of the week, a fleet's repair map), or of the
 * landing page (no audience): where the three meet.
 */
export function HeroVisual({ audience, site }: { audience: string | undefined; site: SiteContext }): ReactNode {
  if (audience === 'hub') return <OrderBoard site={site} />;
  if (audience === 'shop') return <ClaimInbox site={site} />;
  if (audience === 'workwear') return <RepairMap site={site} />;
  return <PlatformScene />;
}

/**
 * The illustration beside a product feature, when it has one: the product as that audience's
 * business would see it (a tailor shop's orders, a fashion brand's claims, a fleet's garments).
 * A feature two audiences share (analytics) shows each its own data.
 */
export function featureVisual(featureId: string, site: SiteContext, audience?: string): ReactNode | undefined {
  switch (featureId) {
    case 'order-management':
      return <OrderList site={site} />;
    case 'sms-updates':
      return <SmsPhone site={site} />;
    case 'analytics':
      return audience === 'shop' ? <ClaimAnalytics site={site} /> : <RepairChart site={site} />;
    case 'invoicing':
      return <Invoice site={site} />;
    case 'online-order-module':
      return <OnlineBooking site={site} />;
    case 'ai-agent':
      return <AgentChat site={site} />;
    case 'claim-repair-portal':
      return <ClaimPortal site={site} />;
    case 'hub-integration':
      return <ClaimRouting site={site} />;
    case 'billing-credit-notes':
      return <ClaimDocuments site={site} />;
    case 'bulk-orders':
      return <BulkOrder site={site} />;
    case 'qr-repairs':
      return <GarmentLabel site={site} target={qrTarget(site)} />;
    case 'co2-savings':
      return <KeptInService site={site} />;
    case 'cost-control':
      return <SiteCosts site={site} />;
    default:
      return undefined;
  }
}
