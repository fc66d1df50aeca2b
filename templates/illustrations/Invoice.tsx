/** The invoice Mendwise Hub makes from a completed order: the order's lines and total, sent. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Pill } from './Frame';

const lineKeys = ['line1', 'line2', 'line3'] as const;

export function Invoice({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'invoice');
  return (
    <AppScreen
      label={t('label')}
      width={480}
      height={360}
      className="ill-invoice"
      title={t('title')}
      subtitle={t('customer')}
    >
      <Pill x={352} y={50} width={100} tone="ready">
        {t('status')}
      </Pill>
      <text className="ill-caption" x="28" y="128">
        {t('description')}
      </text>
      <text className="ill-caption" x="452" y="128" textAnchor="end">
        {t('amount')}
      </text>
      {lineKeys.map((key, index) => {
        const y = 136 + index * 38;
        return (
          <g key={key}>
            <line className="ill-rule" x1="28" x2="452" y1={y} y2={y} />
            <text x="28" y={y + 24}>
              {t(`${key}.text`)}
            </text>
            <text x="452" y={y + 24} textAnchor="end">
              {t(`${key}.amount`)}
            </text>
          </g>
        );
      })}
      <line className="ill-total-rule" x1="28" x2="452" y1="250" y2="250" />
      <text className="ill-strong" x="28" y="278">
        {t('total')}
      </text>
      <text className="ill-heading ill-heading-small" x="452" y="280" textAnchor="end">
        {t('totalAmount')}
      </text>
      <rect className="ill-approved" x="28" y="300" width="424" height="36" rx="10" />
      <path className="ill-check" d="M44 318l5 5 10-10" />
      <text className="ill-approved-text" x="70" y="322">
        {t('fromOrder')}
      </text>
    </AppScreen>
  );
}
