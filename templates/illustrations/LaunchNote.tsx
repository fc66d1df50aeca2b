/**
 * The launch campaign's hero: the release note of Mendwise Hub, pinned up with confetti around it,
 * listing what the page announces (its own copy, so the picture never names a feature the page
 * does not). Decoration: the same words are the page's text below, so it is hidden from assistive
 * technology. Drawn 400 × 300 like the other heroes.
 */
import { Lines, wrapText } from './Frame';

/** Confetti around the note: fixed, so every build draws the same. */
const confetti = [
  { x: 22, y: 40, r: 20, shape: 'bar' },
  { x: 360, y: 26, r: -30, shape: 'dot' },
  { x: 380, y: 120, r: 40, shape: 'bar' },
  { x: 14, y: 170, r: 0, shape: 'dot' },
  { x: 372, y: 236, r: -15, shape: 'bar' },
  { x: 30, y: 270, r: 60, shape: 'bar' },
  { x: 200, y: 12, r: 0, shape: 'dot' },
  { x: 300, y: 288, r: 0, shape: 'dot' },
] as const;

export function LaunchNote({ heading, items }: { heading: string; items: readonly string[] }) {
  const headingLine = wrapText(heading, 30)[0] ?? '';
  // Each title on one line, or two when it is long; the rows stack from under the heading.
  let y = 100;
  const rows = items.slice(0, 4).map((title) => {
    const lines = wrapText(title, 36).slice(0, 2);
    const row = { title, lines, y };
    y += 22 + lines.length * 16;
    return row;
  });
  return (
    <svg
      className="illustration ill-launch"
      viewBox="0 0 400 300"
      width="400"
      height="300"
      aria-hidden="true"
      focusable="false"
    >
      <rect className="ill-soft" x="0" y="0" width="400" height="300" rx="24" />
      {confetti.map(({ x, y, r, shape }, index) =>
        shape === 'dot' ? (
          <circle key={index} className={index % 2 ? 'ill-accent' : 'ill-confetti'} cx={x} cy={y} r="6" />
        ) : (
          <rect
            key={index}
            className={index % 2 ? 'ill-confetti' : 'ill-accent'}
            x={x - 9}
            y={y - 3}
            width="18"
            height="6"
            rx="3"
            transform={`rotate(${r} ${x} ${y})`}
          />
        ),
      )}
      <g transform="rotate(-2 200 150)">
        <rect className="ill-window" x="44" y="34" width="312" height="240" rx="14" />
        <rect className="ill-accent" x="44" y="34" width="312" height="10" rx="5" />
        <circle className="ill-accent" cx="200" cy="30" r="9" />
        <text className="ill-heading ill-heading-small ill-accent-text" x="66" y="82">
          {headingLine}
        </text>
        {rows.map(({ title, lines, y: top }) => (
          <g key={title}>
            <line className="ill-rule" x1="66" x2="334" y1={top} y2={top} />
            <circle className="ill-approved" cx="80" cy={top + 11 + lines.length * 8} r="11" />
            <path className="ill-check" d={`M75 ${top + 11 + lines.length * 8}l4 4 7-7`} />
            <Lines x={100} y={top + 24} lines={lines} lineHeight={16} />
          </g>
        ))}
      </g>
    </svg>
  );
}
