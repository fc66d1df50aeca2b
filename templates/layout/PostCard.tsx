/** One post in a list: title, date, reading time, category and description. */
import type { Page, Post, SiteContext } from 'site/template';

export function PostCard({ post, page, site }: { post: Post; page: Page; site: SiteContext }) {
  const translation = site.translationOf(post);
  const base = page.audience ? site.config.audiences[page.audience]!.path : '';
  const lang = translation.locale === site.locale ? undefined : site.config.locales[translation.locale]!.htmlLang;
  return (
    <article className="post-card" lang={lang}>
      <p className="post-meta">
        <span className="chip">{site.t(`blog.categories.${translation.category}`)}</span>
        <time dateTime={translation.date}>{site.formatDate(translation.date)}</time>
        <span>
          <span className="visually-hidden">{site.t('blog.readingTimeLabel')}: </span>
          {site.t('blog.readingTime', { minutes: translation.readingMinutes })}
        </span>
      </p>
      <h2>
        <a href={site.href(`${base}/blog/${post.slug}`)}>{translation.title}</a>
      </h2>
      <p>{translation.description}</p>
    </article>
  );
}
