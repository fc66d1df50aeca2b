/**
 * The end of a blog post: what to do next for the post's audience, two posts to read next, and
 * who wrote it. A post read in an audience's section (/shop/blog/…) speaks to that audience;
 * elsewhere its front matter's `audience`, else its category (site.data.blog.categoryAudiences),
 * decides; a post for no one audience ends with the contact page.
 */
import type { Entry, EntryTranslation, SiteContext } from 'typed-site/template';
import type { SiteData } from './schemas';
import { ButtonLink } from './ui';

/** The audience whose call to action ends a post, or undefined for the general one. */
export function postAudience(
  site: SiteContext,
  translation: EntryTranslation,
  pageAudience: string | undefined,
): string | undefined {
  if (pageAudience) return pageAudience;
  const own = translation.fields.audience;
  if (typeof own === 'string' && own in site.config.audiences) return own;
  return translation.term ? (site.data as SiteData).blog.categoryAudiences[translation.term] : undefined;
}

/**
 * Two posts to read next, written in the page's language: the newest others of the same category,
 * then (where the category has fewer) the newest others of any.
 */
export function relatedPosts(site: SiteContext, slug: string, term: string | undefined): Entry[] {
  // Stops at the second post of the same category: every page of the blog has this list, and a
  // site of a thousand posts made it a million comparisons per page.
  const same: Entry[] = [];
  const any: Entry[] = [];
  for (const entry of site.entries('blog')) {
    if (entry.slug === slug || !entry.translations[site.locale]) continue;
    if (entry.translations[site.locale]!.term === term) {
      same.push(entry);
      if (same.length === 2) return same;
    } else if (any.length < 2) any.push(entry);
  }
  return [...same, ...any].slice(0, 2);
}

export function PostEnd(props: {
  site: SiteContext;
  slug: string;
  translation: EntryTranslation;
  audience: string | undefined;
  entryPath: string;
}) {
  const { site, translation } = props;
  const { t } = site;
  const cta = (key: string) => t(`blog.end.${props.audience ?? 'general'}.${key}`);
  const action = props.audience
    ? site.href(`${site.config.audiences[props.audience]!.path}/book-meeting`)
    : site.href('/contactus');
  const related = relatedPosts(site, props.slug, translation.term);
  const role = translation.fields.authorRole;
  return (
    <div className="post-end">
      <section
        className={props.audience ? `post-cta audience-${props.audience}` : 'post-cta'}
        aria-labelledby="post-cta-heading"
      >
        <h2 id="post-cta-heading">{cta('heading')}</h2>
        <p>{cta('text')}</p>
        <ButtonLink href={action}>{cta('action')}</ButtonLink>
      </section>
      {related.length > 0 && (
        <nav className="post-related" aria-labelledby="post-related-heading">
          <h2 id="post-related-heading">{t('blog.end.related')}</h2>
          <ul>
            {related.map((entry) => {
              const other = entry.translations[site.locale]!;
              return (
                <li key={entry.slug}>
                  <span className="chip">{t(`blog.categories.${other.term}`)}</span>
                  <a href={site.href(props.entryPath.replace('{slug}', entry.slug))}>{other.title}</a>
                  <p>{other.description}</p>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
      <p
        className="post-author-card"
        lang={translation.locale === site.locale ? undefined : site.config.locales[translation.locale]!.htmlLang}
      >
        <span className="post-author-label">{t('blog.end.writtenBy')}</span>
        <span className="post-author-name">{String(translation.fields.author)}</span>
        {typeof role === 'string' && <span className="post-author-role">{role}</span>}
      </p>
    </div>
  );
}
