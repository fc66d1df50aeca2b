/** An analytics chart: repairs completed per month, as SVG bars with the months in the page's language. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen } from './Frame';

/** The six months shown (June to November) and their counts: fixed, so every build draws the same. */
const months = [
  { month: '2026-06-15', repairs: 120 },
  { month: '2026-07-15', repairs: 135 },
  { month: '2026-08-15', repairs: 150 },
  { month: '2026-09-15', repairs: 170 },
  { month: '2026-10-15', repairs: 195 },
  { month: '2026-11-15', repairs: 210 },
];

export function RepairChart({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.chart.${key}`);
  const monthName = new Intl.DateTimeFormat(site.config.locales[site.locale]!.intl, {
    month: 'short',
    timeZone: 'UTC',
  });
  const top = 120;
  const base = 300;
  const scale = (base - top) / 240;
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={350}
      className="ill-chart"
      title={t('title')}
      subtitle={t('total')}
    >
      {[0, 80, 160, 240].map((value) => (
        <g key={value}>
          <line className="ill-grid" x1="60" x2="452" y1={base - value * scale} y2={base - value * scale} />
          <text className="ill-caption" x="50" y={base - value * scale + 4} textAnchor="end">
            {value}
          </text>
        </g>
      ))}
      {months.map((entry, index) => {
        const height = entry.repairs * scale;
        const x = 76 + index * 64;
        return (
          <g key={entry.month}>
            <rect
              className={index === months.length - 1 ? 'ill-accent' : 'ill-bar'}
              x={x}
              y={base - height}
              width="40"
              height={height}
              rx="6"
            />
            <text className="ill-caption" x={x + 20} y={base + 22} textAnchor="middle">
              {monthName.format(new Date(entry.month)).replace('.', '')}
            </text>
          </g>
        );
      })}
    </AppScreen>
  );
}
