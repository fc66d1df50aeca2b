/** Terms and privacy: Markdown documents with a last-updated date. */
import type { PageProps } from 'typed-site/template';
import { meta, text, z } from '../layout/schemas';

export const content = z.strictObject({
  ...meta,
  updated: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'use an ISO date such as 2026-11-01'),
  html: text,
});
type Content = z.infer<typeof content>;

export default function Legal({ content, site }: PageProps<Content>) {
  return (
    <article className="container legal">
      <header className="legal-header">
        <h1>{content.title}</h1>
        <p className="muted">
          <time dateTime={content.updated}>{site.t('legal.updated', { date: site.formatDate(content.updated) })}</time>
        </p>
      </header>
      <div className="prose" dangerouslySetInnerHTML={{ __html: content.html }} />
    </article>
  );
}
