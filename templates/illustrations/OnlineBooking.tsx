/** The repairer's online order module: a customer describes the repair and picks a drop-off time. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf } from './Frame';

const days = ['day1', 'day2', 'day3'] as const;
const times = ['time1', 'time2', 'time3'] as const;

export function OnlineBooking({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'onlineBooking');
  const field = (x: number, width: number, label: string, value: string) => (
    <g>
      <text className="ill-caption" x={x} y="124">
        {label}
      </text>
      <rect className="ill-field" x={x} y="132" width={width} height="34" rx="8" />
      <text className="ill-strong" x={x + 12} y="154">
        {value}
      </text>
    </g>
  );
  const chip = (x: number, y: number, label: string, chosen: boolean) => (
    <g>
      <rect className={chosen ? 'ill-accent' : 'ill-field'} x={x} y={y} width="132" height="32" rx="8" />
      <text className={chosen ? 'ill-on-accent' : undefined} x={x + 66} y={y + 21} textAnchor="middle">
        {label}
      </text>
    </g>
  );
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={360}
      className="ill-booking"
      title={t('title')}
      subtitle={t('shop')}
    >
      {field(28, 200, t('garment'), t('garmentValue'))}
      {field(244, 208, t('repair'), t('repairValue'))}
      <text className="ill-caption" x="28" y="194">
        {t('dropOff')}
      </text>
      {days.map((key, index) => (
        <g key={key}>{chip(28 + index * 146, 202, t(key), index === 1)}</g>
      ))}
      {times.map((key, index) => (
        <g key={key}>{chip(28 + index * 146, 242, t(key), index === 0)}</g>
      ))}
      <rect className="ill-accent" x="28" y="294" width="424" height="40" rx="20" />
      <text className="ill-on-accent" x="240" y="319" textAnchor="middle">
        {t('submit')}
      </text>
    </AppScreen>
  );
}
