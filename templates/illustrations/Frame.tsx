/**
 * Pieces shared by the product illustrations: the SVG element (one image to assistive technology,
 * named by its label; a fixed width and height, so it takes its place before it paints), an app
 * window and a screen of the app with its title, text wrapped onto lines, status pills, figure
 * tiles, and the messages of one picture. Colours come from main.css (`.ill-*`), so each
 * audience's accent applies.
 */
import type { ReactNode } from 'react';

/** The illustration's SVG: `width` × `height` user units, scaled to its container by CSS. */
export function Illustration(props: {
  label: string;
  width: number;
  height: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <svg
      className={props.className ? `illustration ${props.className}` : 'illustration'}
      viewBox={`0 0 ${props.width} ${props.height}`}
      width={props.width}
      height={props.height}
      role="img"
      aria-label={props.label}
    >
      {props.children}
    </svg>
  );
}

/** An app window with its title bar, at (x, y). */
export function AppWindow(props: { x: number; y: number; width: number; height: number; children?: ReactNode }) {
  const { x, y, width, height } = props;
  return (
    <g>
      <rect className="ill-window" x={x} y={y} width={width} height={height} rx="14" />
      <path
        className="ill-titlebar"
        d={`M${x} ${y + 14}a14 14 0 0 1 14-14h${width - 28}a14 14 0 0 1 14 14v18h-${width}z`}
      />
      {[0, 1, 2].map((dot) => (
        <circle key={dot} className="ill-dot" cx={x + 18 + dot * 14} cy={y + 16} r="4" />
      ))}
      {props.children}
    </g>
  );
}

/**
 * Splits `text` into lines of at most `maxChars` characters, at spaces (a longer word gets a line
 * of its own). Pure, so the same copy always gives the same picture.
 */
export function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Lines of text starting at (x, y), `lineHeight` apart. */
export function Lines(props: {
  x: number;
  y: number;
  lines: readonly string[];
  lineHeight: number;
  className?: string;
}) {
  return (
    <text className={props.className} x={props.x} y={props.y}>
      {props.lines.map((line, index) => (
        <tspan key={index} x={props.x} dy={index ? props.lineHeight : 0}>
          {line}
        </tspan>
      ))}
    </text>
  );
}

/** The colour of a status pill: green done, amber under way, blue new, grey closed. */
export type Tone = 'ready' | 'inProgress' | 'received' | 'pickedUp';

/** A status pill `width` wide with its top left corner at (x, y), its word centred. */
export function Pill(props: { x: number; y: number; width: number; tone: Tone; children: string }) {
  const { x, y, width, tone } = props;
  return (
    <g>
      <rect className={`ill-status ill-status-${tone}`} x={x} y={y} width={width} height="24" rx="12" />
      <text className={`ill-status-text ill-status-text-${tone}`} x={x + width / 2} y={y + 16} textAnchor="middle">
        {props.children}
      </text>
    </g>
  );
}

/** The messages of one illustration: `illustrations.<name>.<key>` in the page's language. */
export function messagesOf(site: { t(key: string): string }, name: string): (key: string) => string {
  return (key) => site.t(`illustrations.${name}.${key}`);
}

/**
 * One screen of the app as a named image: the window, its title and a muted line under it (or, in
 * a hero's narrower picture, beside it on the right). The children draw the screen's content.
 */
export function AppScreen(props: {
  label: string;
  width: number;
  height: number;
  className: string;
  title: string;
  subtitle?: string;
  aside?: string;
  children: ReactNode;
}) {
  const { width, height } = props;
  const inset = props.aside === undefined ? 28 : 20;
  const baseline = props.aside === undefined ? 68 : 62;
  return (
    <Illustration label={props.label} width={width} height={height} className={props.className}>
      <AppWindow x={4} y={4} width={width - 8} height={height - 8}>
        <text className="ill-heading ill-heading-small" x={inset} y={baseline}>
          {props.title}
        </text>
        {props.subtitle !== undefined && (
          <text className="ill-muted" x={inset} y={baseline + 22}>
            {props.subtitle}
          </text>
        )}
        {props.aside !== undefined && (
          <text className="ill-muted" x={width - inset} y={baseline} textAnchor="end">
            {props.aside}
          </text>
        )}
        {props.children}
      </AppWindow>
    </Illustration>
  );
}

/** A figure and what it counts, on a tile `width` wide with its top left corner at (x, y). */
export function Tile(props: { x: number; y: number; width: number; height: number; value: string; name: string }) {
  const { x, y, width, height } = props;
  return (
    <g>
      <rect className="ill-tile" x={x} y={y} width={width} height={height} rx="10" />
      <text className="ill-heading ill-heading-small" x={x + 14} y={y + 27}>
        {props.value}
      </text>
      <text className="ill-caption" x={x + 14} y={y + height - 12}>
        {props.name}
      </text>
    </g>
  );
}
