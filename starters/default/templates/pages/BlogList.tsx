/** The blog's list: one card per post, newest first, with links to newer and older pages. */
import type { CollectionListData, PageMeta, PageProps } from 'typed-site/template';

export default function BlogList({ page, site }: PageProps) {
  const list = page.collection as CollectionListData;
  return (
    <>
      <h1>{site.t('blog.title')}</h1>
      <p className="lead">{site.t('blog.description')}</p>
      {list.entries.length === 0 && <p>{site.t('blog.empty')}</p>}
      <ul className="cards">
        {list.entries.map((listed) => {
          const post = site.entry(list.collection, listed.slug)!.translations[listed.locale]!;
          return (
            <li key={listed.slug} className="card" lang={listed.locale === page.locale ? undefined : listed.locale}>
              <h2>
                <a href={listed.url}>{post.title}</a>
              </h2>
              <p>{post.description}</p>
              <p className="muted">
                <time dateTime={post.date}>{site.formatDate(post.date)}</time> ·{' '}
                {site.t('blog.readingTime', { readingMinutes: post.readingMinutes })}
              </p>
            </li>
          );
        })}
      </ul>
      {(list.previousUrl || list.nextUrl) && (
        <nav className="pager">
          {list.previousUrl && (
            <a rel="prev" href={list.previousUrl}>
              {site.t('blog.newer')}
            </a>
          )}
          {list.nextUrl && (
            <a rel="next" href={list.nextUrl}>
              {site.t('blog.older')}
            </a>
          )}
        </nav>
      )}
    </>
  );
}

export function meta({ page, site }: PageProps): PageMeta {
  const list = page.collection as CollectionListData;
  return {
    title: list.pageNumber > 1 ? `${site.t('blog.title')} (${list.pageNumber})` : site.t('blog.title'),
    description: site.t('blog.description'),
    card: { title: site.t('blog.title') },
    feed: list.feedUrl ? { url: list.feedUrl, title: site.t('blog.title') } : undefined,
  };
}
