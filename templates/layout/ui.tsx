/** Small building blocks shared by the page templates. */
import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

/** A section with a heading, an optional lead and content. */
export function Section(props: {
  id?: string;
  heading?: string;
  lead?: string;
  tone?: 'plain' | 'muted' | 'brand';
  children?: ReactNode;
}) {
  const headingId = props.id ? `${props.id}-heading` : undefined;
  return (
    <section className={`section section-${props.tone ?? 'plain'}`} id={props.id} aria-labelledby={headingId}>
      <div className="container">
        {props.heading && <SectionHeader headingId={headingId} heading={props.heading} lead={props.lead} />}
        {props.children}
      </div>
    </section>
  );
}

/** A section's heading (with the id the section is labelled by), optional icon and lead. */
export function SectionHeader(props: { headingId?: string; heading: string; lead?: string; icon?: IconName }) {
  return (
    <header className="section-header">
      {props.icon && (
        <span className="section-icon">
          <Icon name={props.icon} size={28} />
        </span>
      )}
      <h2 id={props.headingId}>{props.heading}</h2>
      {props.lead && <p className="lead">{props.lead}</p>}
    </header>
  );
}

/** The top of a page: kicker, H1, lead, optional actions and, beside them on wide screens, a visual. */
export function Hero(props: {
  eyebrow?: string;
  heading: string;
  lead: string;
  children?: ReactNode;
  compact?: boolean;
  visual?: ReactNode;
}) {
  const text = (
    <>
      {props.eyebrow && <p className="eyebrow">{props.eyebrow}</p>}
      <h1>{props.heading}</h1>
      <p className="lead">{props.lead}</p>
      {props.children && <div className="actions">{props.children}</div>}
    </>
  );
  return (
    <div className={`hero${props.compact ? ' hero-compact' : ''}${props.visual ? ' hero-with-visual' : ''}`}>
      <div className="container hero-inner">
        {props.visual ? (
          <>
            <div className="hero-text">{text}</div>
            <div className="hero-visual">{props.visual}</div>
          </>
        ) : (
          text
        )}
      </div>
    </div>
  );
}

/** Steps in a row joined by arrows (a how-it-works flow), each with an icon. */
export function Flow(props: {
  id: string;
  heading: string;
  steps: readonly { title: string; text: string; icon: IconName }[];
}) {
  return (
    <Section id={props.id} heading={props.heading} tone="muted">
      <ol className="flow">
        {props.steps.map((step) => (
          <li className="flow-step" key={step.title}>
            <span className="card-icon">
              <Icon name={step.icon} />
            </span>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** A link styled as a button. */
export function ButtonLink(props: {
  href: string;
  variant?: 'primary' | 'secondary' | 'ghost';
  children: ReactNode;
  rel?: string;
}) {
  return (
    <a className={`button button-${props.variant ?? 'primary'}`} href={props.href} rel={props.rel}>
      {props.children}
    </a>
  );
}

/**
 * How many columns a desktop grid of `count` cards gets: the count itself up to four, else three or
 * four, whichever fills the last row better (5 → 3 + 2, 6 → 3 + 3, 7 → 4 + 3), so no card stands alone.
 */
export function gridColumns(count: number): number {
  if (count <= 4) return count;
  const lastRow = (columns: number) => count % columns || columns;
  return lastRow(3) > lastRow(4) ? 3 : 4;
}

/** The class of a card grid of `count` items (columns per width in main.css). */
export function cardGridClass(count: number): string {
  return `card-grid columns-${gridColumns(count)}`;
}

/** A grid of cards with a title and text, and optionally an icon per card (in the order of the items). */
export function CardGrid(props: {
  items: readonly { title: string; text: string }[];
  numbered?: boolean;
  icons?: readonly IconName[];
}) {
  const List = props.numbered ? 'ol' : 'ul';
  return (
    <List className={`${cardGridClass(props.items.length)}${props.numbered ? ' steps' : ''}`}>
      {props.items.map((item, index) => (
        <li className="card" key={item.title}>
          {props.icons?.[index] && (
            <span className="card-icon">
              <Icon name={props.icons[index]} />
            </span>
          )}
          <h3>{item.title}</h3>
          <p>{item.text}</p>
        </li>
      ))}
    </List>
  );
}

/** The 92 million tons claim, or any big figure with a sentence. */
export function Claim(props: { figure: string; text: string }) {
  return (
    <Section tone="brand">
      <p className="claim">
        <strong className="claim-figure">{props.figure}</strong> <span>{props.text}</span>
      </p>
    </Section>
  );
}

/** A closing call to action. */
export function Closing(props: { heading: string; text: string; children: ReactNode }) {
  return (
    <Section tone="muted">
      <div className="closing">
        <h2>{props.heading}</h2>
        <p className="lead">{props.text}</p>
        <div className="actions">{props.children}</div>
      </div>
    </Section>
  );
}

/** Questions and answers as disclosure widgets (keyboard accessible without script). */
export function Faq(props: { heading: string; items: readonly { question: string; answer: string }[] }) {
  return (
    <Section id="faq" heading={props.heading}>
      <div className="faq">
        {props.items.map((item) => (
          <details key={item.question}>
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}

/** Paragraph sections of long-form pages. */
export function Prose(props: {
  sections: readonly { heading: string; paragraphs: readonly string[]; points?: readonly string[] }[];
}) {
  return (
    <>
      {props.sections.map((section, index) => (
        <Section key={section.heading} tone={index % 2 ? 'muted' : 'plain'}>
          <div className="prose">
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.points && section.points.length > 0 && (
              <ul>
                {section.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            )}
          </div>
        </Section>
      ))}
    </>
  );
}
