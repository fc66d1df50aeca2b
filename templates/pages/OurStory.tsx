/** Our story (generic and per audience): the story, and beside it what the site knows of the company in brief. */
import type { PageProps } from 'typed-site/template';
import { listIcons, showsWasteClaim } from '../layout/audience-look';
import { CompanyBrief } from '../layout/CompanyBrief';
import { audienceBase } from '../layout/paths';
import { claim, closingSingle, hero, meta, sections, text, titledItems, z } from '../layout/schemas';
import { ButtonLink, CardGrid, Claim, Closing, Hero, Prose, Section } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero,
  sections,
  values: z.strictObject({ heading: text, items: titledItems }),
  claim,
  closing: closingSingle,
});
type Content = z.infer<typeof content>;

export default function OurStory({ page, content, site }: PageProps<Content>) {
  return (
    <>
      <Hero
        eyebrow={content.hero.eyebrow}
        heading={content.hero.heading}
        lead={content.hero.lead}
        visual={
          <CompanyBrief
            site={site}
            audience={page.audience}
            figure={content.claim.figure}
            beliefs={content.values.items.map((item) => item.title)}
          />
        }
      />
      <Prose sections={content.sections} />
      {showsWasteClaim(page) && <Claim figure={content.claim.figure} text={content.claim.text} />}
      <Section id="values" heading={content.values.heading}>
        <CardGrid items={content.values.items} icons={listIcons.values} />
      </Section>
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${audienceBase(page, site)}/contactus`)}>{content.closing.primaryCta}</ButtonLink>
      </Closing>
    </>
  );
}
