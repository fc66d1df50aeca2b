/**
 * The presentation's own pictures, one per slide with a visual, telling its story: the counter's
 * paper slips stitched into one system, an order moving through its statuses, the customer texted
 * when it is ready, a finished order becoming an invoice and a figure in the analytics. Drawn, not
 * app mock-ups (those are the product pages'), with the few words they show taken from the same
 * messages as the product's pictures (`illustrations.*`), so no grey bar stands in for a word;
 * hidden from assistive technology like the other scenes: the slide's text says the same.
 */
import type { SiteContext } from 'typed-site/template';
import { AppWindow } from './Frame';
import { Scene, Tick } from './scenes';

/** The order statuses, in the order an order passes them (main.css colours each). */
const statuses = ['received', 'inProgress', 'ready', 'pickedUp'] as const;

/** A small order card at (x, y) with its customer's name, in the accent colour when `current`. */
function OrderCard({ x, y, name, current }: { x: number; y: number; name: string; current?: boolean }) {
  return (
    <g>
      <rect className={current ? 'ill-accent' : 'ill-field'} x={x} y={y} width="72" height="30" rx="6" />
      <text className={current ? 'ill-on-accent ill-tiny' : 'ill-strong ill-tiny'} x={x + 8} y={y + 19}>
        {name}
      </text>
    </g>
  );
}

/** A line of handwriting on a paper slip: a scribble `width` long. */
function Scribble({ x, y, width }: { x: number; y: number; width: number }) {
  const waves = Math.max(2, Math.round(width / 12));
  const step = width / waves;
  const path = Array.from(
    { length: waves },
    (_, wave) => `q${step / 4} ${wave % 2 ? 5 : -5} ${step / 2} 0t${step / 2} 0`,
  ).join('');
  return <path className="ill-scribble" d={`M${x} ${y}${path}`} />;
}

/** The title slide: the busy counter's paper slips and phone, stitched into one tidy order list. */
export function PresentationTitleScene({ site }: { site: SiteContext }) {
  const slips = [
    { x: 36, y: 52, angle: -10 },
    { x: 64, y: 120, angle: 7 },
    { x: 30, y: 186, angle: -4 },
  ];
  return (
    <Scene>
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      {slips.map((slip) => (
        <g key={slip.y} transform={`rotate(${slip.angle} ${slip.x + 50} ${slip.y + 32})`}>
          <rect className="ill-window" x={slip.x} y={slip.y} width="100" height="64" rx="4" />
          <Scribble x={slip.x + 12} y={slip.y + 18} width={56} />
          <Scribble x={slip.x + 12} y={slip.y + 34} width={76} />
          <Scribble x={slip.x + 12} y={slip.y + 50} width={40} />
        </g>
      ))}
      <path className="ill-thread" d="M146 92c30 8 20 44 48 52M150 156c20 0 26-8 44-12M136 214c34-4 34-50 58-70" />
      <AppWindow x={194} y={46} width={186} height={208}>
        {statuses.map((status, row) => (
          <g key={status}>
            <rect className={`ill-status-${status}`} x="210" y={90 + row * 38} width="96" height="24" rx="12" />
            <text
              className={`ill-status-text ill-status-text-${status}`}
              x="258"
              y={106 + row * 38}
              textAnchor="middle"
            >
              {site.t(`illustrations.statuses.${status}`)}
            </text>
          </g>
        ))}
        <Tick cx={354} cy={179} />
      </AppWindow>
    </Scene>
  );
}

/** Order management: orders queued at each status, one moving on from in progress to ready. */
export function PresentationOrdersScene({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.${key}`);
  /** The customers waiting at each status, from the bottom of the pile up. */
  const queued = [
    ['orderBoard.received.card1', 'orderBoard.received.card2', 'orderList.order3'],
    ['orderBoard.inProgress.card1', 'orderBoard.inProgress.card3'],
    ['orderBoard.ready.card2'],
    ['orderList.order4', 'orderBoard.inProgress.card2'],
  ];
  return (
    <Scene>
      <rect className="ill-window" x="20" y="26" width="360" height="248" rx="16" />
      <text className="ill-heading ill-heading-small" x="44" y="60">
        {t('orderList.title')}
      </text>
      <rect className="ill-accent" x="246" y="42" width="110" height="26" rx="13" />
      <text className="ill-on-accent ill-tiny" x="301" y="59" textAnchor="middle">
        {t('orderList.newOrder')}
      </text>
      <path className="ill-rule" d="M74 232h252" />
      {statuses.map((status, column) => {
        const x = 74 + column * 84;
        return (
          <g key={status}>
            {queued[column]!.map((key, index) => (
              <OrderCard key={key} x={x - 36} y={176 - index * 38} name={t(`${key}.customer`)} />
            ))}
            <circle className={`ill-status-${status}`} cx={x} cy="232" r="12" />
          </g>
        );
      })}
      <OrderCard x={118} y={86} name={t('orderBoard.ready.card1.customer')} current />
      <path className="ill-link" d="M196 101c30 0 46 8 46 30M236 125l6 6 6-6" />
      <path className="ill-check" d="M236 232l4 4 8-8" />
    </Scene>
  );
}

/** SMS updates: the mended jacket tagged ready on the rail, and the customer told by text on their phone. */
export function PresentationSmsScene({ site }: { site: SiteContext }) {
  return (
    <Scene>
      <rect className="ill-window" x="20" y="20" width="360" height="260" rx="16" />
      <path className="ill-rail" d="M44 56h150M64 56v-16M174 56v-16" />
      <path className="ill-hanger" d="M114 56v10l-24 16h48l-24-16M146 118l12 22" />
      <path className="ill-garment" d="M86 82h56l10 34-12 4v82h-52v-82l-12-4z" />
      <path className="ill-stamp" d="M146 150l12-10 12 10v34h-24z" />
      <path className="ill-check" d="M152 166l4 4 8-8" />
      <rect className="ill-counter" x="40" y="224" width="170" height="16" rx="8" />
      <path className="ill-route" d="M172 136C180 104 198 94 222 96S262 130 270 168" />
      <rect className="ill-accent" x="190" y="80" width="72" height="28" rx="10" />
      <text className="ill-on-accent ill-tiny" x="226" y="98" textAnchor="middle">
        {site.t('illustrations.statuses.ready')}
      </text>
      <circle className="ill-soft" cx="334" cy="170" r="20" />
      <path className="ill-soft" d="M292 270c0-46 18-76 42-76s42 30 42 76z" />
      <rect className="ill-phone-body" x="252" y="176" width="42" height="72" rx="8" />
      <rect className="ill-phone-screen" x="257" y="184" width="32" height="56" rx="4" />
      <rect className="ill-accent" x="261" y="192" width="24" height="12" rx="4" />
      <rect className="ill-accent" x="261" y="210" width="18" height="12" rx="4" />
      <circle className="ill-patch" cx="292" cy="178" r="6" />
    </Scene>
  );
}

/** Analytics and invoicing: a completed order becomes an invoice and a bar in the month's analytics. */
export function PresentationInvoiceScene({ site }: { site: SiteContext }) {
  const t = (key: string) => site.t(`illustrations.${key}`);
  const bars = [34, 50, 44, 66, 82];
  return (
    <Scene>
      <rect className="ill-window" x="20" y="84" width="136" height="136" rx="12" />
      <rect className="ill-status-ready" x="36" y="100" width="64" height="20" rx="10" />
      <text className="ill-status-text ill-status-text-ready ill-tiny" x="68" y="114" textAnchor="middle">
        {t('statuses.ready')}
      </text>
      <text className="ill-strong ill-tiny" x="36" y="142">
        {t('orderList.order1.customer')}
      </text>
      <Tick cx={128} cy={196} />
      <path className="ill-link" d="M162 134c26 0 24-54 46-54M202 74l6 6-6 6" />
      <path className="ill-link" d="M162 172c26 0 24 54 46 54M202 220l6 6-6 6" />
      <rect className="ill-window" x="216" y="20" width="164" height="118" rx="12" />
      <rect className="ill-accent" x="232" y="36" width="28" height="28" rx="6" />
      <text className="ill-strong ill-tiny" x="270" y="55">
        {t('invoice.title')}
      </text>
      <text className="ill-micro" x="232" y="92">
        {t('invoice.line2.text')}
      </text>
      <text className="ill-micro" x="364" y="92" textAnchor="end">
        {t('invoice.line2.amount')}
      </text>
      <path className="ill-rule" d="M232 104h132" />
      <text className="ill-strong ill-micro" x="232" y="124">
        {t('invoice.totalShort')}
      </text>
      <rect className="ill-accent" x="308" y="110" width="56" height="20" rx="6" />
      <text className="ill-on-accent ill-micro" x="336" y="124" textAnchor="middle">
        {t('invoice.totalAmount')}
      </text>
      <rect className="ill-window" x="216" y="162" width="164" height="118" rx="12" />
      <path className="ill-grid" d="M232 208h132M232 236h132" />
      {bars.map((height, index) => (
        <rect
          key={index}
          className={index === bars.length - 1 ? 'ill-accent' : 'ill-bar'}
          x={238 + index * 26}
          y={264 - height}
          width="18"
          height={height}
          rx="3"
        />
      ))}
    </Scene>
  );
}
