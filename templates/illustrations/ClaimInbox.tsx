/**
 * The retailers' home hero: Mendwise Shop's claims of the week, each with where it came in and
 * what was decided (most of them repaired). Drawn 400 × 300 like the other heroes.
 */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Pill, type Tone } from './Frame';

const claims: { key: string; tone: Tone }[] = [
  { key: 'claim1', tone: 'ready' },
  { key: 'claim2', tone: 'ready' },
  { key: 'claim3', tone: 'inProgress' },
  { key: 'claim4', tone: 'pickedUp' },
];

export function ClaimInbox({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'claimInbox');
  return (
    <AppScreen label={t('label')} width={400} height={300} className="ill-inbox" title={t('title')} aside={t('week')}>
      {claims.map(({ key, tone }, index) => {
        const y = 80 + index * 52;
        return (
          <g key={key}>
            <line className="ill-rule" x1="20" x2="380" y1={y} y2={y} />
            <text className="ill-strong ill-small" x="20" y={y + 22}>
              {t(`${key}.product`)}
            </text>
            <text className="ill-caption" x="20" y={y + 40}>
              {t(`${key}.source`)}
            </text>
            <Pill x={272} y={y + 14} width={108} tone={tone}>
              {t(`${key}.outcome`)}
            </Pill>
          </g>
        );
      })}
      <line className="ill-rule" x1="20" x2="380" y1="288" y2="288" />
    </AppScreen>
  );
}
