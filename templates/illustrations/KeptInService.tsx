/** CO₂ savings: garments a fleet repaired instead of replacing, quarter by quarter, beside what was bought new. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Tile } from './Frame';

const quarters = ['q1', 'q2', 'q3', 'q4'] as const;

export function KeptInService({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'keptInService');
  const base = 300;
  const scale = 120 / 140;
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={360}
      className="ill-kept"
      title={t('title')}
      subtitle={t('period')}
    >
      <path className="ill-leaf" d="M452 50c-26 0-38 16-38 37 21 0 38-12 38-37z" />
      <path className="ill-leaf-vein" d="M416 86c9-12 20-21 33-30" />
      {(['repaired', 'avoided'] as const).map((key, index) => (
        <Tile
          key={key}
          x={28 + index * 160}
          y={106}
          width={148}
          height={58}
          value={t(`${key}.value`)}
          name={t(`${key}.name`)}
        />
      ))}
      <rect className="ill-accent" x="356" y="116" width="12" height="12" rx="2" />
      <text className="ill-caption" x="374" y="126">
        {t('legendRepaired')}
      </text>
      <rect className="ill-bar" x="356" y="140" width="12" height="12" rx="2" />
      <text className="ill-caption" x="374" y="150">
        {t('legendNew')}
      </text>
      <line className="ill-rule" x1="28" x2="452" y1={base} y2={base} />
      {quarters.map((key, index) => {
        const x = 56 + index * 104;
        const repaired = Number(t(`${key}.repaired`)) * scale;
        const bought = Number(t(`${key}.new`)) * scale;
        return (
          <g key={key}>
            <rect className="ill-accent" x={x} y={base - repaired} width="30" height={repaired} rx="4" />
            <rect className="ill-bar" x={x + 34} y={base - bought} width="30" height={bought} rx="4" />
            <text className="ill-caption" x={x + 32} y={base + 20} textAnchor="middle">
              {t(`${key}.name`)}
            </text>
          </g>
        );
      })}
    </AppScreen>
  );
}
