/**
 * The presentation's own pictures, one per slide with a visual, telling its story: the counter's
 * paper slips stitched into one system, an order moving through its statuses, the customer texted
 * when it is ready, a finished order becoming an invoice and a figure in the analytics. Drawn, not
 * app mock-ups (those are the product pages'), wordless and hidden from assistive technology like
 * the other scenes: the slide's text says the same.
 */
import { AppWindow } from './Frame';
import { Scene, TextLine, Tick } from './scenes';

/** The order statuses, in the order an order passes them (main.css colours each). */
const statuses = ['received', 'inProgress', 'ready', 'pickedUp'] as const;

/** A small card with two lines of placeholder text at (x, y), the accent colour when `current`. */
function OrderCard({ x, y, current }: { x: number; y: number; current?: boolean }) {
  return (
    <g>
      <rect className={current ? 'ill-accent' : 'ill-field'} x={x} y={y} width="60" height="30" rx="6" />
      <rect
        className={current ? 'ill-on-accent-line' : 'ill-line-strong'}
        x={x + 10}
        y={y + 8}
        width="36"
        height="5"
        rx="2.5"
      />
      <rect
        className={current ? 'ill-on-accent-line' : 'ill-line'}
        x={x + 10}
        y={y + 18}
        width="24"
        height="5"
        rx="2.5"
      />
    </g>
  );
}

/** The title slide: the busy counter's paper slips and phone, stitched into one tidy order list. */
export function PresentationTitleScene() {
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
          <TextLine x={slip.x + 12} y={slip.y + 14} width={56} strong />
          <TextLine x={slip.x + 12} y={slip.y + 30} width={76} />
          <TextLine x={slip.x + 12} y={slip.y + 44} width={40} />
        </g>
      ))}
      <path className="ill-thread" d="M146 92c30 8 20 44 48 52M150 156c20 0 26-8 44-12M136 214c34-4 34-50 58-70" />
      <AppWindow x={194} y={46} width={186} height={208}>
        {statuses.map((status, row) => (
          <g key={status}>
            <rect className={`ill-status-${status}`} x="210" y={94 + row * 38} width="44" height="18" rx="9" />
            <TextLine x={266} y={99 + row * 38} width={row % 2 ? 60 : 80} />
          </g>
        ))}
        <Tick cx={354} cy={179} />
      </AppWindow>
    </Scene>
  );
}

/** Order management: orders queued at each status, one moving on from in progress to ready. */
export function PresentationOrdersScene() {
  const queued = [3, 2, 1, 2];
  return (
    <Scene>
      <rect className="ill-window" x="20" y="26" width="360" height="248" rx="16" />
      <TextLine x={44} y={50} width={120} strong />
      <rect className="ill-field" x="266" y="42" width="90" height="24" rx="12" />
      <path className="ill-rule" d="M74 232h252" />
      {statuses.map((status, column) => {
        const x = 74 + column * 84;
        return (
          <g key={status}>
            {Array.from({ length: queued[column]! }, (_, index) => (
              <OrderCard key={index} x={x - 30} y={176 - index * 38} />
            ))}
            <circle className={`ill-status-${status}`} cx={x} cy="232" r="12" />
          </g>
        );
      })}
      <OrderCard x={128} y={86} current />
      <path className="ill-link" d="M194 101c30 0 48 8 48 30M236 125l6 6 6-6" />
      <path className="ill-check" d="M236 232l4 4 8-8" />
    </Scene>
  );
}

/** SMS updates: the mended jacket tagged ready on the rail, and the customer told by text on their phone. */
export function PresentationSmsScene() {
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
      <rect className="ill-accent" x="196" y="80" width="52" height="28" rx="10" />
      <rect className="ill-on-accent-line" x="206" y="88" width="32" height="5" rx="2.5" />
      <rect className="ill-on-accent-line" x="206" y="97" width="20" height="5" rx="2.5" />
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
export function PresentationInvoiceScene() {
  const bars = [34, 50, 44, 66, 82];
  return (
    <Scene>
      <rect className="ill-window" x="20" y="84" width="136" height="136" rx="12" />
      <rect className="ill-status-ready" x="36" y="100" width="50" height="18" rx="9" />
      <TextLine x={36} y={132} width={96} strong />
      <TextLine x={36} y={150} width={70} />
      <TextLine x={36} y={168} width={84} />
      <Tick cx={128} cy={196} />
      <path className="ill-link" d="M162 134c26 0 24-54 46-54M202 74l6 6-6 6" />
      <path className="ill-link" d="M162 172c26 0 24 54 46 54M202 220l6 6-6 6" />
      <rect className="ill-window" x="216" y="20" width="164" height="118" rx="12" />
      <rect className="ill-accent" x="232" y="36" width="28" height="28" rx="6" />
      <TextLine x={270} y={40} width={80} strong />
      <TextLine x={270} y={56} width={50} />
      <TextLine x={232} y={84} width={80} />
      <TextLine x={332} y={84} width={32} strong />
      <path className="ill-rule" d="M232 104h132" />
      <TextLine x={232} y={116} width={44} strong />
      <rect className="ill-accent" x="318" y="112" width="46" height="16" rx="5" />
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
