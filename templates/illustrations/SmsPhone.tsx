/** A phone showing the text message a customer gets when the repair is ready. */
import type { SiteContext } from 'typed-site/template';
import { Illustration, Lines, wrapText } from './Frame';

export function SmsPhone({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.sms.${key}`);
  const lines = wrapText(t('message'), 24);
  const bubbleHeight = 24 + lines.length * 19;
  return (
    <Illustration label={t('label')} width={260} height={440} className="ill-phone">
      <rect className="ill-phone-body" x="6" y="4" width="248" height="432" rx="36" />
      <rect className="ill-phone-screen" x="18" y="16" width="224" height="408" rx="26" />
      <rect className="ill-phone-notch" x="100" y="24" width="60" height="14" rx="7" />
      <circle className="ill-accent" cx="130" cy="82" r="22" />
      <text className="ill-on-accent ill-initials-large" x="130" y="89" textAnchor="middle">
        {t('sender').charAt(0)}
      </text>
      <text className="ill-strong" x="130" y="126" textAnchor="middle">
        {t('sender')}
      </text>
      <line className="ill-rule" x1="18" x2="242" y1="142" y2="142" />
      <text className="ill-caption" x="130" y="170" textAnchor="middle">
        {t('time')}
      </text>
      <rect className="ill-bubble" x="32" y="184" width="196" height={bubbleHeight} rx="16" />
      <Lines className="ill-bubble-text" x={46} y={208} lines={lines} lineHeight={19} />
    </Illustration>
  );
}
