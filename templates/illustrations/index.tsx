/**
 * Which illustration shows what: the hero visual of each audience, and the illustration beside a
 * product feature (by its id). Every one is static SVG rendered with the page: no script, no image
 * request, a fixed size.
 */
import type { ReactNode } from 'react';
import type { SiteContext } from 'typed-site/template';
import { ClaimPortal } from './ClaimPortal';
import { GarmentLabel } from './GarmentLabel';
import { OrderList } from './OrderList';
import { RepairChart } from './RepairChart';
import { SmsPhone } from './SmsPhone';

/** The workwear label's QR target: this site's page on QR-coded repairs, in the page's language. */
function qrTarget(site: SiteContext): string {
  return encodeURI(`${site.config.site.origin}${site.href('/workwear/product')}#qr-repairs`);
}

/** The order list with the customer's text message in front of it. */
function OrdersAndMessage({ site }: { site: SiteContext }) {
  return (
    <div className="visual-stack">
      <OrderList site={site} />
      <div className="visual-stack-front">
        <SmsPhone site={site} />
      </div>
    </div>
  );
}

/** The hero visual of a page of `audience` (the landing page has none of its own: it shows the Hub's). */
export function HeroVisual({ audience, site }: { audience: string | undefined; site: SiteContext }): ReactNode {
  if (audience === 'shop') return <ClaimPortal site={site} />;
  if (audience === 'workwear') return <GarmentLabel site={site} target={qrTarget(site)} />;
  return <OrdersAndMessage site={site} />;
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
    default:
      return undefined;
  }
}
