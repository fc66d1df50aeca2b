/** The product page of one audience: every feature in depth. */
import type { PageProps } from 'typed-site/template';
import { featureVisual } from '../illustrations';
import { featureIcons } from '../layout/audience-look';
import { audienceBase } from '../layout/paths';
import { closing, hero, meta, text, z } from '../layout/schemas';
import { ButtonLink, Closing, Hero, Section, SectionHeader } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero,
  features: z
    .array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9-]+$/),
        title: text,
        summary: text,
        points: z.array(text).min(1),
      }),
    )
    .min(1),
  closing,
});
type Content = z.infer<typeof content>;

export default function Product({ page, content, site }: PageProps<Content>) {
  const base = audienceBase(page, site);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead} />
      <nav className="container toc" aria-labelledby="toc-heading">
        <h2 id="toc-heading" className="visually-hidden">
          {content.hero.eyebrow}
        </h2>
        <ul>
          {content.features.map((feature) => (
            <li key={feature.id}>
              <a href={`#${feature.id}`}>{feature.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {content.features.map((feature, index) => {
        const visual = featureVisual(feature.id, site, page.audience);
        const points = (
          <ul className="checklist">
            {feature.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        );
        return (
          <Section key={feature.id} id={feature.id} tone={index % 2 ? 'muted' : 'plain'}>
            <div className={visual ? `feature-split${index % 2 ? ' is-reversed' : ''}` : 'feature'}>
              <div className="feature-text">
                <SectionHeader
                  headingId={`${feature.id}-heading`}
                  heading={feature.title}
                  lead={feature.summary}
                  icon={featureIcons[feature.id]}
                />
                {points}
              </div>
              {visual && <div className="feature-visual">{visual}</div>}
            </div>
          </Section>
        );
      })}
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
        <ButtonLink href={site.href(`${base}/pricing`)} variant="secondary">
          {content.closing.secondaryCta}
        </ButtonLink>
      </Closing>
    </>
  );
}
