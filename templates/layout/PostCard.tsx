/** One post in a list: its image (or its drawn cover), title, date, reading time, category and description. */
import type { ListedEntry, SiteContext } from 'typed-site/template';
import { BlogCover } from '../illustrations/BlogCover';
import { Picture } from './Picture';

export function PostCard({ listed, site }: { listed: ListedEntry; site: SiteContext }) {
  const post = site.entry('blog', listed.slug)!;
  const translation = post.translations[listed.locale]!;
  const lang = translation.locale === site.locale ? undefined : site.config.locales[translation.locale]!.htmlLang;
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
          subject={translation.fields.cover}
        />
      )}
      <p className="post-meta">
        <span className="chip">{site.t(`blog.categories.${translation.term}`)}</span>
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
