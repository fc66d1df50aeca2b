/** A workwear bulk order: one order for a site's batch of garments, each with its own damage and status. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Pill, type Tone } from './Frame';

const items: { key: string; tone: Tone }[] = [
  { key: 'item1', tone: 'ready' },
  { key: 'item2', tone: 'inProgress' },
  { key: 'item3', tone: 'received' },
  { key: 'item4', tone: 'ready' },
];

export function BulkOrder({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'bulkOrder');
  const done = Number(t('done'));
  const total = Number(t('total'));
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={380}
      className="ill-bulk"
      title={t('title')}
      subtitle={t('batch')}
    >
      <rect className="ill-track" x="28" y="106" width="424" height="10" rx="5" />
      <rect className="ill-accent" x="28" y="106" width={Math.round((424 * done) / total)} height="10" rx="5" />
      <text className="ill-caption" x="28" y="136">
        {t('progress')}
      </text>
      {items.map(({ key, tone }, index) => {
        const y = 148 + index * 50;
        return (
          <g key={key}>
            <line className="ill-rule" x1="28" x2="452" y1={y} y2={y} />
            <text className="ill-strong" x="28" y={y + 22}>
              {t(`${key}.garment`)}
            </text>
            <text className="ill-muted" x="28" y={y + 40}>
              {t(`${key}.id`)} · {t(`${key}.damage`)}
            </text>
            <Pill x={340} y={y + 13} width={112} tone={tone}>
              {t(`${key}.status`)}
            </Pill>
          </g>
        );
      })}
      <line className="ill-rule" x1="28" x2="452" y1="348" y2="348" />
      <text className="ill-caption" x="28" y="366">
        {t('more')}
      </text>
    </AppScreen>
  );
}
