/** The retailer's analytics: claims by product category, and how they ended (repaired, replaced, refunded). */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Tile } from './Frame';

const categories = ['cat1', 'cat2', 'cat3', 'cat4', 'cat5'] as const;
const outcomes = ['repaired', 'replaced', 'refunded'] as const;

export function ClaimAnalytics({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'claimAnalytics');
  const values = categories.map((key) => Number(t(`${key}.count`)));
  const most = Math.max(...values);
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={360}
      className="ill-claims-chart"
      title={t('title')}
      subtitle={t('period')}
    >
      {categories.map((key, index) => {
        const y = 110 + index * 30;
        const width = Math.round((values[index]! / most) * 236);
        return (
          <g key={key}>
            <text x="28" y={y + 15}>
              {t(`${key}.name`)}
            </text>
            <rect className={index ? 'ill-bar' : 'ill-accent'} x="148" y={y + 2} width={width} height="18" rx="4" />
            <text className="ill-strong" x={156 + width} y={y + 15}>
              {values[index]}
            </text>
          </g>
        );
      })}
      {outcomes.map((key, index) => (
        <Tile
          key={key}
          x={28 + index * 144}
          y={268}
          width={132}
          height={64}
          value={t(`${key}.share`)}
          name={t(`${key}.name`)}
        />
      ))}
    </AppScreen>
  );
}
