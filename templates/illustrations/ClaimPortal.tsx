/** The retailer's claim portal: a claim with product, issue and photos, approved and routed to a repairer. */
import type { SiteContext } from 'typed-site/template';
import { AppWindow, Illustration } from './Frame';

export function ClaimPortal({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.claimPortal.${key}`);
  const field = (y: number, label: string, value: string) => (
    <g>
      <text className="ill-caption" x="28" y={y}>
        {label}
      </text>
      <rect className="ill-field" x="28" y={y + 8} width="424" height="34" rx="8" />
      <text className="ill-strong" x="40" y={y + 30}>
        {value}
      </text>
    </g>
  );
  return (
    <Illustration label={t('label')} width={480} height={400} className="ill-claim">
      <AppWindow x={4} y={4} width={472} height={392}>
        <text className="ill-heading" x="28" y="70">
          {t('title')}
        </text>
        {field(98, t('product'), t('productValue'))}
        {field(158, t('issue'), t('issueValue'))}
        <text className="ill-caption" x="28" y="218">
          {t('photos')}
        </text>
        {[0, 1].map((index) => (
          <g key={index}>
            <rect className="ill-photo" x={28 + index * 64} y="226" width="54" height="46" rx="8" />
            <path className="ill-photo-mark" d={`M${36 + index * 64} 264l12-14 9 9 7-6 14 11z`} />
          </g>
        ))}
        <rect className="ill-approved" x="164" y="226" width="288" height="46" rx="10" />
        <path className="ill-check" d="M180 249l6 6 12-12" />
        <text className="ill-approved-text" x="208" y="254">
          {t('decision')}
        </text>
        <path className="ill-pin" d="M36 301a8 8 0 1 1 16 0c0 6-8 13-8 13s-8-7-8-13z" />
        <text className="ill-muted" x="60" y="310">
          {t('route')}
        </text>
        <rect className="ill-accent" x="28" y="332" width="424" height="40" rx="20" />
        <text className="ill-on-accent" x="240" y="357" textAnchor="middle">
          {t('submit')}
        </text>
      </AppWindow>
    </Illustration>
  );
}
