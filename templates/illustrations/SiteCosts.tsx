/** Cost control: a quarter's repair costs per site, beside what replacing the garments would have cost, against the budget. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf } from './Frame';

const siteKeys = ['site1', 'site2', 'site3', 'site4'] as const;

export function SiteCosts({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'siteCosts');
  const used = Number(t('budgetShare'));
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={360}
      className="ill-costs"
      title={t('title')}
      subtitle={t('period')}
    >
      <text className="ill-caption" x="28" y="124">
        {t('site')}
      </text>
      <text className="ill-caption" x="258" y="124" textAnchor="end">
        {t('repairs')}
      </text>
      <text className="ill-caption" x="350" y="124" textAnchor="end">
        {t('cost')}
      </text>
      <text className="ill-caption" x="452" y="124" textAnchor="end">
        {t('replacement')}
      </text>
      {siteKeys.map((key, index) => {
        const y = 132 + index * 36;
        return (
          <g key={key}>
            <line className="ill-rule" x1="28" x2="452" y1={y} y2={y} />
            <text className="ill-strong" x="28" y={y + 23}>
              {t(`${key}.name`)}
            </text>
            <text x="258" y={y + 23} textAnchor="end">
              {t(`${key}.repairs`)}
            </text>
            <text className="ill-strong" x="350" y={y + 23} textAnchor="end">
              {t(`${key}.cost`)}
            </text>
            <text className="ill-muted" x="452" y={y + 23} textAnchor="end">
              {t(`${key}.replacement`)}
            </text>
          </g>
        );
      })}
      <line className="ill-total-rule" x1="28" x2="452" y1="276" y2="276" />
      <text className="ill-strong" x="28" y="302">
        {t('budget')}
      </text>
      <text className="ill-strong" x="452" y="302" textAnchor="end">
        {t('budgetUsed')}
      </text>
      <rect className="ill-track" x="28" y="316" width="424" height="12" rx="6" />
      <rect className="ill-accent" x="28" y="316" width={Math.round(424 * used)} height="12" rx="6" />
    </AppScreen>
  );
}
