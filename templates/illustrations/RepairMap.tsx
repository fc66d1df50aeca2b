/**
 * The workwear home's hero: Mendwise Workwear's repair map, a fleet's sites with the garments they
 * have out for repair and the partner repairer nearest each, one garment's route picked out.
 * Drawn 400 × 300 like the other heroes, so it takes the same place.
 */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf } from './Frame';

/** Each site on the map and its nearest partner repairer (a pin), in map units. */
const sites = [
  { key: 'site1', x: 56, y: 168, partner: [34, 142] },
  { key: 'site2', x: 80, y: 232, partner: [52, 214] },
  { key: 'site3', x: 130, y: 120, partner: [106, 100] },
  { key: 'site4', x: 292, y: 224, partner: [268, 204] },
] as const;

export function RepairMap({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'repairMap');
  const pin = (x: number, y: number) => `M${x} ${y + 10}c-7-8-10-13-10-17a10 10 0 0 1 20 0c0 4-3 9-10 17z`;
  return (
    <AppScreen label={t('label')} width={400} height={300} className="ill-map" title={t('title')} aside={t('summary')}>
      <rect className="ill-map-ground" x="16" y="76" width="368" height="208" rx="10" />
      <path
        className="ill-road"
        d="M16 196c60-14 110 10 160-30s120-40 208-20M130 284c10-60 40-90 46-118s70 10 110 110"
      />
      {sites.map(({ key, x, y, partner: [px, py] }) => (
        <g key={key}>
          <path className="ill-route" d={`M${x} ${y}L${px} ${py}`} />
          <path className="ill-pin" d={pin(px, py)} />
          <rect className="ill-accent" x={x - 7} y={y - 7} width="14" height="14" rx="3" />
          <text className="ill-strong ill-small" x={x + 14} y={y - 1}>
            {t(`${key}.name`)}
          </text>
          <text className="ill-caption" x={x + 14} y={y + 13}>
            {t(`${key}.open`)}
          </text>
        </g>
      ))}
      <rect className="ill-card ill-card-ready" x="222" y="88" width="154" height="86" rx="8" />
      <text className="ill-strong ill-small" x="234" y="108">
        {t('route.garment')}
      </text>
      {(['item', 'partner', 'distance'] as const).map((key, index) => (
        <text key={key} className="ill-caption" x="234" y={126 + index * 16}>
          {t(`route.${key}`)}
        </text>
      ))}
      <rect className="ill-accent" x="28" y="262" width="10" height="10" rx="2" />
      <text className="ill-caption" x="44" y="271">
        {t('legendSites')}
      </text>
      <path className="ill-pin" d={pin(150, 270)} />
      <text className="ill-caption" x="164" y="271">
        {t('legendPartners')}
      </text>
    </AppScreen>
  );
}
