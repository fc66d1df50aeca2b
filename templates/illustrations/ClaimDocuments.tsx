/** Billing and credit notes: closed claims, each with the document its outcome made, sent to finance. */
import type { SiteContext } from 'typed-site/template';
import { AppScreen, messagesOf, Pill } from './Frame';

const caseKeys = ['case1', 'case2', 'case3'] as const;

export function ClaimDocuments({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'claimDocuments');
  return (
    <AppScreen label={t('label')} width={480} height={360} className="ill-documents" title={t('title')}>
      <text className="ill-caption" x="28" y="104">
        {t('claim')}
      </text>
      <text className="ill-caption" x="248" y="104">
        {t('document')}
      </text>
      {caseKeys.map((key, index) => {
        const y = 112 + index * 60;
        const credit = t(`${key}.kind`) === 'credit';
        return (
          <g key={key}>
            <line className="ill-rule" x1="28" x2="452" y1={y} y2={y} />
            <text className="ill-strong" x="28" y={y + 24}>
              {t(`${key}.claim`)}
            </text>
            <text className="ill-muted" x="28" y={y + 44}>
              {t(`${key}.outcome`)}
            </text>
            <path className="ill-link" d={`M212 ${y + 30}h20M226 ${y + 24}l6 6-6 6`} />
            <rect className={credit ? 'ill-doc-credit' : 'ill-doc'} x="248" y={y + 12} width="20" height="26" rx="3" />
            <text className="ill-strong" x="278" y={y + 24}>
              {t(`${key}.document`)}
            </text>
            <text className="ill-muted" x="278" y={y + 44}>
              {t(`${key}.amount`)}
            </text>
          </g>
        );
      })}
      <line className="ill-rule" x1="28" x2="452" y1="292" y2="292" />
      <Pill x={28} y={308} width={180} tone="ready">
        {t('finance')}
      </Pill>
    </AppScreen>
  );
}
