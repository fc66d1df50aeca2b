/** The subjects a blog post may name with `cover:` in its front matter, each a drawing of its own. */
import { between, type Motif } from './cover-kit';

/** A tailor shop's day: the wall clock, garments on the rail, a garment on the counter with its ticket. */
const counter: Motif = (random, { soft, strong }) => {
  const hour = between(random, 0, 360);
  const garments = 3 + Math.floor(random() * 2);
  return (
    <g>
      <circle cx="266" cy="48" r="26" fill="#fff" stroke={strong} strokeWidth="3" />
      <path
        d="M266 48v-16"
        stroke={strong}
        strokeWidth="3"
        strokeLinecap="round"
        transform={`rotate(${hour} 266 48)`}
      />
      <path d="M266 48h12" stroke={strong} strokeWidth="3" strokeLinecap="round" />
      <path d="M24 30h170" stroke={strong} strokeWidth="4" strokeLinecap="round" />
      {Array.from({ length: garments }, (_, index) => {
        const x = 40 + index * (150 / garments);
        return (
          <g key={index}>
            <path d={`M${x + 16} 30v8l-16 10h32l-16-10`} fill="none" stroke={strong} strokeWidth="2" />
            <path
              d={`M${x - 2} 48h36l6 22-8 3v${between(random, 36, 56)}h-32v-${between(random, 36, 56)}l-8-3z`}
              fill={index % 2 ? soft : '#fff'}
              stroke={strong}
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </g>
        );
      })}
      <rect x="0" y="138" width="320" height="42" fill={strong} />
      <path d="M196 138l12-30h56l12 30z" fill={soft} stroke="#fff" strokeWidth="2" />
      <rect
        x="226"
        y="96"
        width="22"
        height="30"
        rx="3"
        fill="#fff"
        stroke={strong}
        strokeWidth="2"
        transform="rotate(12 237 111)"
      />
    </g>
  );
};

/** A city's repair network: streets, and pins joined to one another. */
const network: Motif = (random, { soft, strong }) => {
  const pins = Array.from({ length: 5 }, (_, index) => ({
    x: 40 + index * 60 + between(random, -14, 14),
    y: between(random, 50, 140),
  }));
  return (
    <g>
      {[40, 90, 140].map((y) => (
        <path key={y} d={`M0 ${y}h320`} stroke="#fff" strokeWidth="10" />
      ))}
      {[70, 160, 250].map((x) => (
        <path key={x} d={`M${x} 0v180`} stroke="#fff" strokeWidth="10" />
      ))}
      <path
        d={`M${pins.map((pin) => `${pin.x} ${pin.y}`).join('L')}`}
        fill="none"
        stroke={strong}
        strokeWidth="3"
        strokeDasharray="8 6"
      />
      {pins.map((pin, index) => (
        <g key={index}>
          <circle cx={pin.x} cy={pin.y + 2} r="14" fill={soft} />
          <path
            d={`M${pin.x} ${pin.y + 8}c-9-10-13-16-13-22a13 13 0 0 1 26 0c0 6-4 12-13 22z`}
            fill={index === 2 ? strong : '#fff'}
            stroke={strong}
            strokeWidth="2"
          />
          <circle cx={pin.x} cy={pin.y - 14} r="4" fill={index === 2 ? '#fff' : strong} />
        </g>
      ))}
    </g>
  );
};

/** A claim portal: a browser window with a torn garment's photo, and the way to the repairer. */
const portal: Motif = (random, { soft, strong }) => {
  const tilt = between(random, -6, 6);
  return (
    <g>
      <g transform={`rotate(${tilt} 120 92)`}>
        <rect x="30" y="24" width="180" height="136" rx="10" fill="#fff" stroke={strong} strokeWidth="2" />
        <path d="M30 34a10 10 0 0 1 10-10h160a10 10 0 0 1 10 10v10H30z" fill={soft} />
        {[0, 1, 2].map((dot) => (
          <circle key={dot} cx={44 + dot * 12} cy="34" r="3" fill={strong} />
        ))}
        <rect x="46" y="56" width="76" height="84" rx="6" fill={soft} />
        <path
          d="M62 70h44l6 20-6 2v40H62v-40l-6-2z"
          fill="#fff"
          stroke={strong}
          strokeWidth="2"
          strokeLinejoin="round"
        />
        <path d="M76 106l6 6-4 4 6 6" fill="none" stroke={strong} strokeWidth="2" strokeLinecap="round" />
        <circle cx="166" cy="98" r="24" fill={strong} />
        <path
          d="M154 98l8 8 16-16"
          fill="none"
          stroke="#fff"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </g>
      <path d="M222 96h40" stroke={strong} strokeWidth="4" strokeLinecap="round" strokeDasharray="2 10" />
      <path
        d="M258 84l12 12-12 12"
        fill="none"
        stroke={strong}
        strokeWidth="4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <g transform={`rotate(${between(random, -40, -20)} 290 96)`}>
        <path d="M262 93h52l8 3-8 3h-52z" fill={strong} />
        <ellipse cx="269" cy="96" rx="4" ry="1.5" fill="#fff" />
      </g>
    </g>
  );
};

/** From apprentice to owner: a shop of one's own, its awning and open door, and the shears. */
const shopfront: Motif = (random, { soft, strong }) => {
  const x = between(random, 40, 90);
  return (
    <g>
      <rect x={x} y="52" width="170" height="128" fill="#fff" stroke={strong} strokeWidth="2" />
      <path d={`M${x - 10} 52l12-26h166l12 26z`} fill={strong} />
      <path
        d={`M${x - 10} 52h190v10c-19 9-38 9-47 0-10 9-29 9-48 0-9 9-28 9-47 0-10 9-29 9-48 0z`}
        fill={soft}
        stroke={strong}
        strokeWidth="2"
      />
      <rect x={x + 16} y="82" width="74" height="58" rx="4" fill={soft} stroke={strong} strokeWidth="2" />
      <path
        d={`M${x + 36} 92h32l5 16-5 2v24h-32v-24l-5-2z`}
        fill="#fff"
        stroke={strong}
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <rect x={x + 108} y="82" width="46" height="98" rx="3" fill={strong} />
      <circle cx={x + 146} cy="132" r="3" fill="#fff" />
      <g transform={`rotate(${between(random, -30, 30)} 270 110)`}>
        <circle cx="252" cy="140" r="12" fill="none" stroke={strong} strokeWidth="4" />
        <circle cx="288" cy="140" r="12" fill="none" stroke={strong} strokeWidth="4" />
        <path d="M258 130l42-70M282 130l-42-70" stroke={strong} strokeWidth="5" strokeLinecap="round" />
      </g>
    </g>
  );
};

/** Workwear with a QR code: a hi-vis jacket, its reflective stripes, and the code on its tag. */
const qr: Motif = (random, { soft, strong }) => {
  const cells = Array.from({ length: 49 }, () => random() > 0.5);
  const finder = (x: number, y: number) => (
    <g>
      <rect x={x} y={y} width="21" height="21" fill={strong} />
      <rect x={x + 3} y={y + 3} width="15" height="15" fill="#fff" />
      <rect x={x + 6} y={y + 6} width="9" height="9" fill={strong} />
    </g>
  );
  return (
    <g>
      <path
        d="M70 24h40c4 12 36 12 40 0h40l44 34-18 26-20-12v108H64V72l-20 12-18-26z"
        fill="#e8b923"
        stroke={strong}
        strokeWidth="3"
        strokeLinejoin="round"
      />
      <path d="M64 118h146M64 142h146" stroke="#fff" strokeWidth="9" />
      <path d="M64 118h146M64 142h146" stroke="#c9ccc9" strokeWidth="2" strokeDasharray="4 6" />
      <path d="M137 34v146" stroke={strong} strokeWidth="2" />
      <g transform={`rotate(${between(random, -10, 10)} 262 96)`}>
        <rect x="222" y="40" width="80" height="110" rx="8" fill="#fff" stroke={strong} strokeWidth="2" />
        <rect x="230" y="64" width="64" height="64" fill={soft} />
        <g transform="translate(234 68)">
          {finder(0, 0)}
          {finder(35, 0)}
          {finder(0, 35)}
          {cells.map((on, index) =>
            on ? (
              <rect
                key={index}
                x={35 + (index % 7) * 3}
                y={35 + Math.floor(index / 7) * 3}
                width="3"
                height="3"
                fill={strong}
              />
            ) : null,
          )}
        </g>
        <circle cx="262" cy="52" r="4" fill={strong} />
      </g>
    </g>
  );
};

/** Repair as a retail service: a shopping bag with a mended coat in it, and its tag. */
const bag: Motif = (random, { soft, strong }) => {
  const x = between(random, 60, 110);
  return (
    <g>
      <path d={`M${x + 30} 50c0-28 60-28 60 0`} fill="none" stroke={strong} strokeWidth="5" />
      <path d={`M${x} 50h120l12 126H${x - 12}z`} fill={soft} stroke={strong} strokeWidth="3" strokeLinejoin="round" />
      <path
        d={`M${x + 30} 64h60l10 32-10 4v56h-60v-56l-10-4z`}
        fill="#fff"
        stroke={strong}
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <path d={`M${x + 60} 64v92`} stroke={strong} strokeWidth="2" strokeDasharray="5 5" />
      <g transform={`rotate(${between(random, -20, 20)} 250 80)`}>
        <path d="M236 48l16-14 16 14v60h-32z" fill={strong} />
        <circle cx="252" cy="54" r="5" fill={soft} />
        <path d={`M252 34C240 10 ${x + 110} 20 ${x + 96} 56`} fill="none" stroke={strong} strokeWidth="2" />
      </g>
    </g>
  );
};

/** Text messages that customers love: a phone, its messages, and a heart. */
const phone: Motif = (random, { soft, strong }) => {
  const x = between(random, 90, 130);
  return (
    <g>
      <rect x={x} y="14" width="96" height="180" rx="16" fill={strong} />
      <rect x={x + 7} y="24" width="82" height="170" rx="10" fill="#fff" />
      <rect x={x + 16} y="44" width="56" height="26" rx="10" fill={soft} />
      <rect x={x + 28} y="80" width="52" height="34" rx="10" fill={strong} />
      <rect x={x + 16} y="124" width="44" height="22" rx="10" fill={soft} />
      <path
        d={`M${x + 38} 90l5 5 10-10`}
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <g transform={`translate(${x + 140} ${between(random, 50, 80)}) rotate(${between(random, -15, 15)})`}>
        <path d="M0 12C-12 -6 -34 4 -24 22L0 46 24 22C34 4 12 -6 0 12z" fill={strong} />
      </g>
      <circle cx={x - 36} cy="60" r="10" fill={soft} />
      <circle cx={x - 60} cy="110" r="6" fill={soft} />
    </g>
  );
};

/** Paper repair slips: stubs with their perforated edge, piling up. */
const slips: Motif = (random, { soft, strong }) => {
  const count = 4 + Math.floor(random() * 2);
  return (
    <g>
      {Array.from({ length: count }, (_, index) => {
        const x = 40 + index * 44;
        const y = 40 + between(random, -10, 30);
        const angle = between(random, -14, 14);
        return (
          <g key={index} transform={`rotate(${angle} ${x + 30} ${y + 44})`}>
            <rect
              x={x}
              y={y}
              width="60"
              height="92"
              rx="4"
              fill={index === count - 1 ? strong : '#fff'}
              stroke={strong}
              strokeWidth="2"
            />
            <path
              d={`M${x} ${y + 60}h60`}
              stroke={index === count - 1 ? '#fff' : strong}
              strokeWidth="2"
              strokeDasharray="3 4"
            />
            <circle
              cx={x + 30}
              cy={y + 16}
              r="5"
              fill={index === count - 1 ? '#fff' : soft}
              stroke={strong}
              strokeWidth="2"
            />
            <rect x={x + 14} y={y + 70} width="32" height="12" rx="2" fill={soft} />
          </g>
        );
      })}
    </g>
  );
};

/**
 * The motifs a post may name with `cover:` in its front matter, so each post gets a picture of its
 * own subject; a post that names none gets its category's.
 */
export const subjects: Record<string, Motif> = { counter, network, portal, shopfront, qr, bag, phone, slips };
