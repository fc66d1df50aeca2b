/** The long-form presentation of Mendwise Hub (one page per language). */
import type { PageProps } from 'site/template';
import { closingSingle, hero, meta, sections, z } from '../layout/schemas';
import { ButtonLink, Closing, Hero, Prose } from '../layout/ui';

export const content = z.strictObject({ ...meta, hero, sections, closing: closingSingle });
type Content = z.infer<typeof content>;

export default function Presentation({ content, site }: PageProps<Content>) {
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead} />
      <Prose sections={content.sections} />
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href('/hub/book-meeting')}>{content.closing.primaryCta}</ButtonLink>
      </Closing>
    </>
  );
}
