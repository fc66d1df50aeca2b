/** A blog list page: all posts or one category, newest first, paginated. */
import type { CollectionListData, PageMeta, PageProps } from 'typed-site/template';
import { feedMeta } from '../layout/blog';
import { PostCard } from '../layout/PostCard';
import { cardGridClass } from '../layout/ui';

export default function BlogList({ page, site }: PageProps) {
  const { t } = site;
  const list = page.collection as CollectionListData;
  const categoryName = (category?: string) => t(`blog.categories.${category ?? 'all'}`);
  return (
    <div className="container blog">
      <header className="blog-header">
        <h1>{list.term ? t('blog.categoryTitle', { category: categoryName(list.term) }) : t('blog.heading')}</h1>
        <p className="lead">{t('blog.lead')}</p>
      </header>
      <nav className="category-filter" aria-label={t('blog.filterLabel')}>
        <ul>
          {list.filterUrls.map((filter) => {
            const active = filter.term === list.term;
            return (
              <li key={filter.term ?? 'all'}>
                <a
                  className={active ? 'chip is-active' : 'chip'}
                  href={filter.url}
                  aria-current={active ? 'page' : undefined}
                >
                  {categoryName(filter.term)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      {list.entries.length === 0 ? (
        <p className="empty-state">{list.term ? t('blog.emptyCategory') : t('blog.empty')}</p>
      ) : (
        <ul className={`${cardGridClass(list.entries.length)} post-list`}>
          {list.entries.map((listed) => (
            <li key={listed.slug}>
              <PostCard listed={listed} site={site} />
            </li>
          ))}
        </ul>
      )}
      {list.pageCount > 1 && (
        <nav className="pagination" aria-label={t('blog.pagination')}>
          {list.previousUrl ? (
            <a href={list.previousUrl} rel="prev">
              {t('blog.previous')}
            </a>
          ) : (
            <span />
          )}
          <span>{t('blog.pageOf', { page: list.pageNumber, count: list.pageCount })}</span>
          {list.nextUrl ? (
            <a href={list.nextUrl} rel="next">
              {t('blog.next')}
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
      {list.feedUrl && (
        <p className="feed-link">
          <a href={list.feedUrl}>{t('blog.feed')}</a>
        </p>
      )}
    </div>
  );
}

export function meta({ page, site }: PageProps): PageMeta {
  const list = page.collection as CollectionListData;
  const base = list.term
    ? site.t('blog.categoryTitle', { category: site.t(`blog.categories.${list.term}`) })
    : site.t('blog.title');
  const title =
    list.pageNumber > 1 ? `${base} (${site.t('blog.pageOf', { page: list.pageNumber, count: list.pageCount })})` : base;
  return { title, description: site.t('blog.description'), feed: feedMeta(page, site), card: { title: base } };
}
