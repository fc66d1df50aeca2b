/** The AI agent answering a customer from the order it looks up, in the shop's chat. */
import type { SiteContext } from 'typed-site/template';
import { AppWindow, Illustration, Lines, Pill, messagesOf, wrapText } from './Frame';

export function AgentChat({ site }: { site: SiteContext }) {
  const t = messagesOf(site, 'agent');
  const question = wrapText(t('question'), 36);
  const answer = wrapText(t('answer'), 36);
  const questionHeight = 20 + question.length * 18;
  const answerTop = 116 + questionHeight + 16;
  const answerHeight = 20 + answer.length * 18;
  const cardTop = answerTop + answerHeight + 12;
  return (
    <Illustration label={t('label')} width={480} height={380} className="ill-agent">
      <AppWindow x={4} y={4} width={472} height={372}>
        <circle className="ill-accent" cx="44" cy="68" r="16" />
        <path className="ill-on-accent-stroke" d="M37 64h14M37 72h9" />
        <text className="ill-strong" x="70" y="64">
          {t('title')}
        </text>
        <text className="ill-caption" x="70" y="82">
          {t('subtitle')}
        </text>
        <line className="ill-rule" x1="28" x2="452" y1="100" y2="100" />
        <rect className="ill-bubble" x="28" y="116" width="284" height={questionHeight} rx="14" />
        <Lines className="ill-bubble-line" x={44} y={139} lines={question} lineHeight={18} />
        <rect className="ill-accent" x="168" y={answerTop} width="284" height={answerHeight} rx="14" />
        <Lines className="ill-on-accent-text" x={184} y={answerTop + 23} lines={answer} lineHeight={18} />
        <rect className="ill-field" x="168" y={cardTop} width="284" height="48" rx="10" />
        <text className="ill-strong" x="182" y={cardTop + 29}>
          {t('order')}
        </text>
        <Pill x={364} y={cardTop + 12} width={76} tone="ready">
          {site.t('illustrations.statuses.ready')}
        </Pill>
        <text className="ill-caption" x="452" y={cardTop + 72} textAnchor="end">
          {t('footnote')}
        </text>
      </AppWindow>
    </Illustration>
  );
}
