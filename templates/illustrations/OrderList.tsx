/** The Mendwise Hub order list: four orders with customer, garment and a status pill. */
import type { SiteContext } from 'typed-site/template';
import { AppWindow, Illustration } from './Frame';

const orderKeys = ['order1', 'order2', 'order3', 'order4'] as const;

export function OrderList({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.orderList.${key}`);
  return (
    <Illustration label={t('label')} width={480} height={360} className="ill-orders">
      <AppWindow x={4} y={4} width={472} height={352}>
        <text className="ill-heading" x="28" y="70">
          {t('title')}
        </text>
        <rect className="ill-accent" x="336" y="50" width="116" height="30" rx="15" />
        <text className="ill-on-accent" x="394" y="70" textAnchor="middle">
          {t('newOrder')}
        </text>
        <text className="ill-caption" x="28" y="108">
          {t('customer')} · {t('garment')}
        </text>
        <text className="ill-caption" x="394" y="108" textAnchor="middle">
          {t('status')}
        </text>
        {orderKeys.map((key, index) => {
          const y = 120 + index * 58;
          const status = t(`${key}.status`);
          return (
            <g key={key}>
              <line className="ill-rule" x1="28" x2="452" y1={y} y2={y} />
              <circle className="ill-avatar" cx="46" cy={y + 29} r="15" />
              <text className="ill-initials" x="46" y={y + 34} textAnchor="middle">
                {initials(t(`${key}.customer`))}
              </text>
              <text className="ill-strong" x="72" y={y + 25}>
                {t(`${key}.customer`)}
              </text>
              <text className="ill-muted" x="72" y={y + 44}>
                {t(`${key}.garment`)}
              </text>
              <rect className={`ill-status ill-status-${status}`} x="340" y={y + 15} width="108" height="26" rx="13" />
              <text className={`ill-status-text ill-status-text-${status}`} x="394" y={y + 32} textAnchor="middle">
                {site.t(`illustrations.statuses.${status}`)}
              </text>
            </g>
          );
        })}
      </AppWindow>
    </Illustration>
  );
}

/** "Anna Berg" → "AB". */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part.charAt(0))
    .join('')
    .slice(0, 2)
    .toUpperCase();
}
