/**
 * Drawn scenes without words: the product features that have no mock-up of their own, each
 * audience's home, the landing page and our story. Decoration beside copy that says the same, so
 * hidden from assistive technology; lines stand in for text, so no copy lives here and both
 * languages get the same picture. Colours come from main.css (`.ill-*`), so each audience's accent
 * applies.
 */
import type { ReactNode } from 'react';
import { AppWindow } from './Frame';

/** A decorative scene of 400 × 300 user units. */
export function Scene({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <svg
      className={className ? `illustration ${className}` : 'illustration'}
      viewBox="0 0 400 300"
      width="400"
      height="300"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** A line of placeholder text, `width` long. */
export function TextLine({ x, y, width, strong }: { x: number; y: number; width: number; strong?: boolean }) {
  return <rect className={strong ? 'ill-line-strong' : 'ill-line'} x={x} y={y} width={width} height="8" rx="4" />;
}

/** A check mark in a circle at (cx, cy). */
export function Tick({ cx, cy }: { cx: number; cy: number }) {
  return (
    <g>
      <circle className="ill-approved" cx={cx} cy={cy} r="14" />
      <path className="ill-check" d={`M${cx - 6} ${cy}l4 4 8-8`} />
    </g>
  );
}

/** Invoicing: an invoice with its lines and total, stamped paid. */
export function InvoiceScene() {
  return (
    <Scene>
      <rect className="ill-window" x="90" y="24" width="220" height="252" rx="12" />
      <rect className="ill-accent" x="114" y="48" width="40" height="40" rx="8" />
      <TextLine x={170} y={52} width={110} strong />
      <TextLine x={170} y={72} width={70} />
      {[0, 1, 2].map((row) => (
        <g key={row}>
          <TextLine x={114} y={116 + row * 28} width={100} />
          <TextLine x={246} y={116 + row * 28} width={40} strong />
        </g>
      ))}
      <path className="ill-rule" d="M114 200h172" />
      <TextLine x={114} y={216} width={60} strong />
      <rect className="ill-accent" x="226" y="210" width="60" height="20" rx="6" />
      <g transform="rotate(-12 300 230)">
        <rect className="ill-stamp" x="250" y="226" width="100" height="40" rx="8" />
        <path className="ill-check" d="M274 246l8 8 16-16" />
      </g>
    </Scene>
  );
}

/** Online orders: the shop's booking form on a phone, a time picked, a new order arriving. */
export function OnlineOrderScene() {
  return (
    <Scene>
      <AppWindow x={24} y={34} width={250} height={220}>
        <TextLine x={48} y={82} width={120} strong />
        {[0, 1, 2, 3, 4, 5].map((slot) => (
          <rect
            key={slot}
            className={slot === 4 ? 'ill-accent' : 'ill-field'}
            x={48 + (slot % 3) * 70}
            y={108 + Math.floor(slot / 3) * 40}
            width="60"
            height="30"
            rx="6"
          />
        ))}
        <rect className="ill-accent" x="48" y="200" width="110" height="30" rx="15" />
      </AppWindow>
      <rect className="ill-phone-body" x="254" y="60" width="122" height="220" rx="20" />
      <rect className="ill-phone-screen" x="262" y="72" width="106" height="196" rx="14" />
      <rect className="ill-soft" x="272" y="96" width="86" height="52" rx="10" />
      <TextLine x={282} y={108} width={60} strong />
      <TextLine x={282} y={126} width={44} />
      <Tick cx={315} cy={190} />
    </Scene>
  );
}

/** The AI agent: a customer's question answered at once, with the order it looked up. */
export function AgentScene() {
  return (
    <Scene>
      <rect className="ill-window" x="40" y="20" width="320" height="260" rx="16" />
      <rect className="ill-bubble" x="64" y="48" width="180" height="48" rx="14" />
      <TextLine x={80} y={62} width={140} />
      <TextLine x={80} y={78} width={90} />
      <circle className="ill-accent" cx="318" cy="132" r="18" />
      <path className="ill-on-accent-stroke" d="M310 128h16M310 136h10" />
      <rect className="ill-accent" x="134" y="112" width="166" height="60" rx="14" />
      <rect className="ill-on-accent-line" x="150" y="126" width="120" height="8" rx="4" />
      <rect className="ill-on-accent-line" x="150" y="144" width="80" height="8" rx="4" />
      <rect className="ill-field" x="134" y="188" width="166" height="64" rx="10" />
      <rect className="ill-status-ready" x="148" y="202" width="56" height="18" rx="9" />
      <TextLine x={148} y={230} width={110} />
      <Tick cx={274} cy={220} />
    </Scene>
  );
}

/** Two systems joined: the shop's portal and the repairer's Hub, orders passing both ways. */
export function IntegrationScene() {
  return (
    <Scene>
      <AppWindow x={16} y={60} width={150} height={180}>
        {[0, 1, 2].map((row) => (
          <TextLine key={row} x={36} y={112 + row * 30} width={100 - row * 16} />
        ))}
      </AppWindow>
      <AppWindow x={234} y={60} width={150} height={180}>
        {[0, 1, 2].map((row) => (
          <TextLine key={row} x={254} y={112 + row * 30} width={70 + row * 14} />
        ))}
      </AppWindow>
      <path className="ill-link" d="M172 128h56M222 122l6 6-6 6" />
      <path className="ill-link" d="M228 172h-56M178 166l-6 6 6 6" />
      <circle className="ill-accent" cx="200" cy="150" r="14" />
      <path className="ill-on-accent-stroke" d="M194 150h12M200 144v12" />
    </Scene>
  );
}

/** Billing and credit notes: an invoice and its credit note, the amount going back. */
export function CreditNoteScene() {
  return (
    <Scene>
      <g transform="rotate(-6 150 150)">
        <rect className="ill-window" x="50" y="40" width="170" height="210" rx="12" />
        {[0, 1, 2, 3].map((row) => (
          <TextLine key={row} x={72} y={72 + row * 26} width={row ? 110 : 70} strong={!row} />
        ))}
        <rect className="ill-soft" x="72" y="196" width="126" height="30" rx="8" />
      </g>
      <rect className="ill-window" x="180" y="64" width="170" height="210" rx="12" />
      <rect className="ill-accent" x="200" y="86" width="60" height="20" rx="6" />
      {[0, 1, 2].map((row) => (
        <TextLine key={row} x={200} y={124 + row * 26} width={120 - row * 20} />
      ))}
      <path className="ill-minus" d="M206 230h20" />
      <TextLine x={236} y={226} width={90} strong />
    </Scene>
  );
}

/** Bulk orders: garments boxed by the dozen, one slip for the lot. */
export function BulkScene() {
  const boxes = [
    [60, 170],
    [150, 170],
    [240, 170],
    [105, 96],
    [195, 96],
  ];
  return (
    <Scene>
      {boxes.map(([x, y], index) => (
        <g key={index}>
          <rect className={index === 4 ? 'ill-accent' : 'ill-box'} x={x} y={y} width="96" height="72" rx="6" />
          <path className="ill-box-tape" d={`M${x! + 40} ${y}v24h16v-24`} />
        </g>
      ))}
      <g transform="rotate(8 320 80)">
        <rect className="ill-window" x="270" y="30" width="96" height="120" rx="8" />
        {[0, 1, 2, 3].map((row) => (
          <TextLine key={row} x={284} y={50 + row * 22} width={row ? 56 : 40} strong={!row} />
        ))}
      </g>
    </Scene>
  );
}

/** CO₂ savings: a garment mended, a leaf, and emissions falling with each repair. */
export function Co2Scene() {
  return (
    <Scene>
      <rect className="ill-window" x="30" y="30" width="340" height="240" rx="16" />
      {[110, 92, 76, 58, 44].map((h, index) => (
        <rect
          key={index}
          className={index === 4 ? 'ill-accent' : 'ill-bar'}
          x={64 + index * 44}
          y={236 - h}
          width="30"
          height={h}
          rx="4"
        />
      ))}
      <path className="ill-trend" d="M79 116l44 18 44 16 44 18 44 14" />
      <path className="ill-leaf" d="M318 70c-40 0-58 24-58 56 32 0 58-18 58-56z" />
      <path className="ill-leaf-vein" d="M262 124c14-18 30-32 50-46" />
    </Scene>
  );
}

/** Cost control: spend under a budget line, month by month. */
export function CostScene() {
  const points = [190, 170, 182, 150, 140, 128, 118];
  return (
    <Scene>
      <rect className="ill-window" x="30" y="30" width="340" height="240" rx="16" />
      <path className="ill-budget" d="M56 110h290" />
      <path className="ill-grid" d="M56 150h290M56 190h290M56 230h290" />
      <path className="ill-trend" d={`M${points.map((y, index) => `${66 + index * 46} ${y}`).join('L')}`} />
      {points.map((y, index) => (
        <circle
          key={index}
          className={index === points.length - 1 ? 'ill-accent' : 'ill-point'}
          cx={66 + index * 46}
          cy={y}
          r="6"
        />
      ))}
      <TextLine x={56} y={62} width={120} strong />
      <rect className="ill-accent" x="286" y="54" width="60" height="24" rx="12" />
    </Scene>
  );
}

/** The repairer's home: the counter of a tailor shop, a garment on the rail, the day's tickets done. */
export function RepairerHomeScene() {
  return (
    <Scene>
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      <path className="ill-rail" d="M40 60h220M60 60v-20M240 60v-20" />
      {[70, 130, 190].map((x, index) => (
        <g key={x}>
          <path className="ill-hanger" d={`M${x + 20} 60v10l-24 16h48l-24-16`} />
          <path
            className={index === 1 ? 'ill-accent' : 'ill-garment'}
            d={`M${x - 4} 86h48l8 30-10 4v70h-44v-70l-10-4z`}
          />
        </g>
      ))}
      <rect className="ill-counter" x="20" y="220" width="360" height="60" rx="10" />
      <g transform="rotate(-4 320 150)">
        <rect className="ill-window" x="270" y="90" width="100" height="120" rx="10" />
        {[0, 1, 2].map((row) => (
          <g key={row}>
            <Tick cx={292} cy={118 + row * 34} />
            <TextLine x={312} y={114 + row * 34} width={44} />
          </g>
        ))}
      </g>
    </Scene>
  );
}

/** The retailer's home: a shop front whose customers hand in garments, and the repair coming back. */
export function RetailerHomeScene() {
  return (
    <Scene>
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      <path className="ill-accent" d="M50 70l20-36h260l20 36z" />
      <path
        className="ill-awning"
        d="M50 70h300v14c-25 12-50 12-75 0-25 12-50 12-75 0-25 12-50 12-75 0-25 12-50 12-75 0z"
      />
      <rect className="ill-window" x="66" y="96" width="268" height="180" rx="6" />
      <rect className="ill-field" x="90" y="120" width="120" height="110" rx="6" />
      <rect className="ill-field" x="230" y="120" width="80" height="156" rx="6" />
      <path className="ill-garment" d="M130 134h40l8 24-8 4v56h-40v-56l-8-4z" />
      <g transform="rotate(10 286 170)">
        <path className="ill-tag-shape" d="M270 150l16-14 16 14v48h-32z" />
        <circle className="ill-soft" cx="286" cy="154" r="4" />
      </g>
      <path className="ill-link" d="M120 250c40 20 100 20 140 0M254 244l6 6-8 4" />
    </Scene>
  );
}

/** Workwear's home: a van with a fleet's garments, routed to repairers on a map. */
export function WorkwearHomeScene() {
  const pins = [
    [84, 70],
    [300, 56],
    [330, 160],
    [140, 150],
  ];
  return (
    <Scene>
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      <path className="ill-road" d="M0 214c80-30 150-30 220-12s130 10 180-20" />
      <path className="ill-route" d="M200 120L84 70M200 120L300 56M200 120L330 160M200 120L140 150" />
      {pins.map(([x, y]) => (
        <path
          key={`${x}${y}`}
          className="ill-pin"
          d={`M${x} ${y! + 14}c-10-12-14-18-14-24a14 14 0 0 1 28 0c0 6-4 12-14 24z`}
        />
      ))}
      <circle className="ill-accent" cx="200" cy="120" r="18" />
      <rect className="ill-window" x="70" y="196" width="180" height="64" rx="10" />
      <path className="ill-accent" d="M250 212h44l26 24v24h-70z" />
      <circle className="ill-wheel" cx="110" cy="262" r="16" />
      <circle className="ill-wheel" cx="280" cy="262" r="16" />
      <TextLine x={90} y={216} width={100} strong />
      <TextLine x={90} y={234} width={64} />
    </Scene>
  );
}

/** The landing page: the three businesses Mendwise joins, around one platform. */
export function PlatformScene() {
  const nodes = [
    { x: 90, y: 70, className: 'ill-node-hub' },
    { x: 320, y: 90, className: 'ill-node-shop' },
    { x: 200, y: 250, className: 'ill-node-workwear' },
  ];
  return (
    <Scene>
      {nodes.map((node) => (
        <path key={node.className} className="ill-link" d={`M200 150L${node.x} ${node.y}`} />
      ))}
      <circle className="ill-soft" cx="200" cy="150" r="70" />
      <circle className="ill-accent" cx="200" cy="150" r="40" />
      <path className="ill-on-accent-stroke" d="M184 160c0-20 8-34 16-34s16 14 16 34M192 160h16" />
      {nodes.map((node) => (
        <g key={node.className}>
          <circle className={node.className} cx={node.x} cy={node.y} r="34" />
          <rect className="ill-on-accent-line" x={node.x - 16} y={node.y - 8} width="32" height="6" rx="3" />
          <rect className="ill-on-accent-line" x={node.x - 10} y={node.y + 4} width="20" height="6" rx="3" />
        </g>
      ))}
    </Scene>
  );
}

/** Our story: a mended garment, its repair stitched across it, the thread running on. */
export function StoryScene() {
  return (
    <Scene className="ill-story">
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      <path className="ill-garment-large" d="M130 50h140l60 50-30 36-30-20v150H130V116l-30 20-30-36z" />
      <path className="ill-patch" d="M176 150h56v56h-56z" />
      <path className="ill-stitch" d="M176 150h56v56h-56z" />
      <path className="ill-thread" d="M232 206c40 20 60 40 110 30" />
      <path className="ill-needle" d="M338 230l40-20 4 4-40 22z" />
      <circle className="ill-accent" cx="200" cy="92" r="6" />
      <circle className="ill-accent" cx="200" cy="120" r="6" />
    </Scene>
  );
}
