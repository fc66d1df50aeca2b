/**
 * The Hub integration: a claim in the retailer's portal arrives as an order in the repairer's
 * Mendwise Hub, and the repair's status flows back to the portal.
 */
import type { SiteContext } from 'typed-site/template';
import { AppWindow, Illustration, Pill, messagesOf } from './Frame';

export function ClaimRouting({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'claimRouting');
  const side = (x: number, key: 'shop' | 'hub', tone: 'inProgress' | 'received') => (
    <AppWindow x={x} y={4} width={204} height={226}>
      <text className="ill-caption" x={x + 18} y={62}>
        {t(`${key}.system`)}
      </text>
      <text className="ill-heading ill-heading-small" x={x + 18} y={88}>
        {t(`${key}.case`)}
      </text>
      <text className="ill-strong" x={x + 18} y={118}>
        {t(`${key}.line1`)}
      </text>
      <text className="ill-muted" x={x + 18} y={138}>
        {t(`${key}.line2`)}
      </text>
      <text className="ill-muted" x={x + 18} y={158}>
        {t(`${key}.line3`)}
      </text>
      <Pill x={x + 18} y={180} width={120} tone={tone}>
        {t(`${key}.status`)}
      </Pill>
    </AppWindow>
  );
  return (
    <Illustration label={t('label')} width={480} height={360} className="ill-routing">
      {side(4, 'shop', 'inProgress')}
      {side(272, 'hub', 'inProgress')}
      <circle className="ill-accent" cx="240" cy="117" r="22" />
      <path className="ill-on-accent-stroke" d="M229 110h20l-5-5M251 124h-20l5 5" />
      <rect className="ill-window" x="4" y="250" width="472" height="106" rx="14" />
      <path className="ill-link" d="M26 282h28M46 274l8 8-8 8" />
      <text x="70" y="287">
        {t('sent')}
      </text>
      <line className="ill-rule" x1="26" x2="454" y1="303" y2="303" />
      <path className="ill-link" d="M54 326H26M34 318l-8 8 8 8" />
      <text x="70" y="331">
        {t('back')}
      </text>
    </Illustration>
  );
}
