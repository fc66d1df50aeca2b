/**
 * One post in a list: its image (or its drawn cover), title, date, reading time, category and
 * description. A post not yet translated into the page's language is shown in its own (`lang`),
 * with a label that says so; its date, category and label stay in the page's language.
 */
import type { ListedEntry, SiteContext } from 'typed-site/template';
import { BlogCover } from '../illustrations/BlogCover';
import { Picture } from './Picture';

export function PostCard({ listed, site }: { listed: ListedEntry; site: SiteContext }) {
  const post = site.entry('blog', listed.slug)!;
  const translation = post.translations[listed.locale]!;
  const untranslated = translation.locale !== site.locale;
  const lang = untranslated ? site.config.locales[translation.locale]!.htmlLang : undefined;
  const pageLang = untranslated ? site.config.locales[site.locale]!.htmlLang : undefined;
  return (
    <article className="post-card" lang={lang}>
      {translation.image ? (
        <Picture
          className="post-card-image"
          image={translation.image}
          sizes="(min-width: 60rem) 22rem, (min-width: 40rem) 45vw, 92vw"
        />
      ) : (
        <BlogCover
          className="post-card-image"
          slug={listed.slug}
          category={translation.term ?? ''}
          subject={typeof translation.fields.cover === 'string' ? translation.fields.cover : undefined}
        />
      )}
      <p className="post-meta" lang={pageLang}>
        <span className="post-meta-labels">
          <span className="chip">{site.t(`blog.categories.${translation.term}`)}</span>
          {untranslated && <span className="chip chip-language">{site.t('blog.untranslatedLabel')}</span>}
        </span>
        <span className="post-meta-details">
          <time dateTime={translation.date}>{site.formatDate(translation.date)}</time>
          <span>
            <span className="visually-hidden">{site.t('blog.readingTimeLabel')}: </span>
            {site.t('blog.readingTime', { readingMinutes: translation.readingMinutes })}
          </span>
        </span>
      </p>
      <h2>{listed.url ? <a href={listed.url}>{translation.title}</a> : translation.title}</h2>
      <p>{translation.description}</p>
    </article>
  );
}
