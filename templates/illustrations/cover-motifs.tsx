/** The blog categories' motifs: a cover's drawing when its post names no subject of its own. */
import { between, type Motif, width } from './cover-kit';

/** Rings joined by arrows: material going round instead of out. */
export const loops: Motif = (random, { soft, strong }) => {
  const cx = between(random, 110, 210);
  const cy = between(random, 75, 105);
  const rings = 2 + Math.floor(random() * 3);
  const turn = Math.floor(random() * 360);
  return (
    <g transform={`rotate(${turn} ${cx} ${cy})`}>
      {Array.from({ length: rings }, (_, ring) => {
        const r = 26 + ring * 20;
        return (
          <g key={ring}>
            <path
              d={`M${cx + r} ${cy}A${r} ${r} 0 1 1 ${cx} ${cy - r}`}
              fill="none"
              stroke={ring % 2 ? soft : strong}
              strokeWidth={ring % 2 ? 10 : 5}
              strokeLinecap="round"
            />
            <path
              d={`M${cx - 7} ${cy - r - 8}l10 8-10 8`}
              fill="none"
              stroke={ring % 2 ? soft : strong}
              strokeWidth="4"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </g>
        );
      })}
      <circle cx={cx} cy={cy} r="9" fill={strong} />
    </g>
  );
};

/** A dashboard: bars of a chart and a message bubble. */
const dashboard: Motif = (random, { soft, strong }) => {
  const bars = 5 + Math.floor(random() * 4);
  const left = between(random, 40, 70);
  const bubbleX = between(random, 180, 220);
  return (
    <g>
      <rect x={left - 16} y="28" width="200" height="128" rx="12" fill="#fff" />
      {Array.from({ length: bars }, (_, index) => {
        const h = between(random, 18, 84);
        return (
          <rect
            key={index}
            x={left + index * (168 / bars)}
            y={140 - h}
            width={168 / bars - 8}
            height={h}
            rx="3"
            fill={index === bars - 1 ? strong : soft}
          />
        );
      })}
      <g transform={`translate(${bubbleX} ${between(random, 16, 60)})`}>
        <rect width="92" height="40" rx="12" fill={strong} />
        <path d="M16 38l-6 12 16-12z" fill={strong} />
        <rect x="12" y="12" width="64" height="5" rx="2.5" fill="#fff" />
        <rect x="12" y="23" width="40" height="5" rx="2.5" fill="#fff" opacity="0.7" />
      </g>
    </g>
  );
};

/** Garment tags on a string, hanging at angles. */
const tags: Motif = (random, { soft, strong }) => {
  const count = 2 + Math.floor(random() * 3);
  const sag = between(random, 14, 40);
  return (
    <g>
      <path d={`M0 34Q${width / 2} ${34 + sag * 2} ${width} 34`} fill="none" stroke={strong} strokeWidth="2" />
      {Array.from({ length: count }, (_, index) => {
        const x = ((index + 1) * width) / (count + 1);
        const t = x / width;
        const y = 34 + 2 * t * (1 - t) * sag * 2;
        const angle = between(random, -18, 18);
        return (
          <g key={index} transform={`rotate(${angle} ${x} ${y})`}>
            <path
              d={`M${x} ${y}l26 22v80h-52v-80z`}
              fill={index % 2 ? soft : '#fff'}
              stroke={strong}
              strokeWidth="2"
              strokeLinejoin="round"
            />
            <circle cx={x} cy={y + 20} r="5" fill="none" stroke={strong} strokeWidth="2" />
            <rect x={x - 16} y={y + 46} width="32" height="5" rx="2.5" fill={strong} />
            <rect x={x - 16} y={y + 58} width="22" height="5" rx="2.5" fill={strong} opacity="0.5" />
          </g>
        );
      })}
    </g>
  );
};

/** A needle trailing a stitched thread, and buttons. */
const stitches: Motif = (random, { soft, strong }) => {
  const y1 = between(random, 40, 140);
  const y2 = between(random, 40, 140);
  const buttons = 2 + Math.floor(random() * 3);
  const spoolX = between(random, 30, 110);
  return (
    <g>
      <g transform={`rotate(${between(random, -12, 12)} ${spoolX + 24} 110)`}>
        <rect x={spoolX} y="62" width="48" height="10" rx="3" fill={strong} />
        <rect x={spoolX + 5} y="72" width="38" height="66" fill={soft} />
        {[0, 1, 2, 3, 4, 5].map((line) => (
          <path
            key={line}
            d={`M${spoolX + 5} ${80 + line * 10}h38`}
            stroke={strong}
            strokeOpacity="0.35"
            strokeWidth="2"
          />
        ))}
        <rect x={spoolX} y="138" width="48" height="10" rx="3" fill={strong} />
      </g>
      <path
        d={`M-10 ${y1}C90 ${between(random, -20, 200)} 190 ${between(random, -20, 200)} 250 ${y2}`}
        fill="none"
        stroke={strong}
        strokeWidth="3"
        strokeDasharray="10 7"
        strokeLinecap="round"
      />
      <g transform={`rotate(${between(random, -35, 35)} 262 ${y2})`}>
        <path d={`M250 ${y2 - 3}h52l10 3-10 3h-52z`} fill={strong} />
        <ellipse cx="257" cy={y2} rx="4" ry="1.5" fill="#fff" />
      </g>
      {Array.from({ length: buttons }, (_, index) => {
        const cx = between(random, 150, 290);
        const cy = between(random, 36, 150);
        const r = between(random, 14, 26);
        return (
          <g key={index}>
            <circle cx={cx} cy={cy} r={r} fill={soft} stroke={strong} strokeWidth="2" />
            {[
              [-1, -1],
              [1, -1],
              [-1, 1],
              [1, 1],
            ].map(([dx, dy]) => (
              <circle key={`${dx}${dy}`} cx={cx + dx! * r * 0.28} cy={cy + dy! * r * 0.28} r={r * 0.1} fill={strong} />
            ))}
          </g>
        );
      })}
    </g>
  );
};

/** Each category's motif. */
export const categoryMotifs: Record<string, Motif> = {
  circularity: loops,
  saas: dashboard,
  retail: tags,
  'repairer-stories': stitches,
};
