/**
 * The repairers' home hero: Mendwise Hub's order board for the day, the shop's orders in columns by
 * status. Drawn 400 × 300 like the other heroes, so it takes the same place.
 */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, type Tone } from './Frame';

const columns: { status: Tone; cards: string[] }[] = [
  { status: 'received', cards: ['card1', 'card2'] },
  { status: 'inProgress', cards: ['card1', 'card2', 'card3'] },
  { status: 'ready', cards: ['card1', 'card2'] },
];

export function OrderBoard({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'orderBoard');
  return (
    <AppScreen label={t('label')} width={400} height={300} className="ill-board" title={t('title')} aside={t('date')}>
      {columns.map(({ status, cards }, column) => {
        const x = 16 + column * 124;
        return (
          <g key={status}>
            <rect className="ill-tile" x={x} y="76" width="120" height="208" rx="10" />
            <circle className={`ill-status-${status} ill-status-dot-${status}`} cx={x + 16} cy="94" r="5" />
            <text className="ill-caption ill-strong" x={x + 27} y="98">
              {site.t(`illustrations.statuses.${status}`)} · {t(`${status}.count`)}
            </text>
            {cards.map((card, index) => {
              const y = 110 + index * 58;
              return (
                <g key={card}>
                  <rect
                    className={status === 'ready' && !index ? 'ill-card ill-card-ready' : 'ill-card'}
                    x={x + 7}
                    y={y}
                    width="106"
                    height="50"
                    rx="8"
                  />
                  <text className="ill-strong ill-small" x={x + 17} y={y + 21}>
                    {t(`${status}.${card}.customer`)}
                  </text>
                  <text className="ill-caption" x={x + 17} y={y + 38}>
                    {t(`${status}.${card}.garment`)}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
    </AppScreen>
  );
}
