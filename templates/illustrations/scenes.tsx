/**
 * Drawn scenes without words: the landing page's hero, and the pieces the presentation's slides
 * are drawn with. Decoration beside copy that says the same, so
 * hidden from assistive technology; no copy lives here, so both languages get the same picture.
 * Colours come from main.css (`.ill-*`), so each audience's accent applies.
 */
import type { ReactNode } from 'react';

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

/** A check mark in a circle at (cx, cy). */
export function Tick({ cx, cy }: { cx: number; cy: number }) {
  return (
    <g>
      <circle className="ill-approved" cx={cx} cy={cy} r="14" />
      <path className="ill-check" d={`M${cx - 6} ${cy}l4 4 8-8`} />
    </g>
  );
}

/** The landing page: the three businesses Mendwise joins, around one platform. */
export function PlatformScene() {
  // Each business with its sign, drawn round (0, 0): the repairer's shears, the shop's price tag, the workwear jacket.
  const nodes = [
    {
      x: 90,
      y: 70,
      className: 'ill-node-hub',
      sign: 'M-12 10a5 5 0 1 0 .1 0M12 10a5 5 0 1 0 .1 0M-9 6L9-14M9 6L-9-14',
    },
    { x: 320, y: 90, className: 'ill-node-shop', sign: 'M-4-14h14v14L-4 14-14 4zM3-7a2 2 0 1 0 .1 0' },
    {
      x: 200,
      y: 250,
      className: 'ill-node-workwear',
      sign: 'M-8-14h16l10 8-4 6-4-2v16h-20v-16l-4 2-4-6zM-10 2h20M0-14v28',
    },
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
          <path className="ill-on-accent-stroke ill-sign" d={node.sign} transform={`translate(${node.x} ${node.y})`} />
        </g>
      ))}
    </Scene>
  );
}
