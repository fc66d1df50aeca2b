/** A blog list page: all posts or one category, newest first, paginated. */
import type { BlogListData, PageMeta, PageProps } from 'site/template';
import { feedUrl } from '../layout/blog';
import { PostCard } from '../layout/PostCard';

export default function BlogList({ page, site }: PageProps) {
  const { t } = site;
  const list = page.blog as BlogListData;
  const posts = list.slugs.map((slug) => site.postBySlug(slug)!);
  const categoryName = (category?: string) => t(`blog.categories.${category ?? 'all'}`);
  return (
    <div className="container blog">
      <header className="blog-header">
        <h1>{list.category ? t('blog.categoryTitle', { category: categoryName(list.category) }) : t('blog.heading')}</h1>
        <p className="lead">{t('blog.lead')}</p>
      </header>
      <nav className="category-filter" aria-label={t('blog.filterLabel')}>
        <ul>
          {list.filterUrls.map((filter) => {
            const active = filter.category === list.category;
            return (
              <li key={filter.category ?? 'all'}>
                <a className={active ? 'chip is-active' : 'chip'} href={filter.url} aria-current={active ? 'page' : undefined}>
                  {categoryName(filter.category)}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
      {posts.length === 0 ? (
        <p className="empty-state">{list.category ? t('blog.emptyCategory') : t('blog.empty')}</p>
      ) : (
        <ul className="post-list">
          {posts.map((post) => (
            <li key={post.slug}>
              <PostCard post={post} page={page} site={site} />
            </li>
          ))}
        </ul>
      )}
      {list.pageCount > 1 && (
        <nav className="pagination" aria-label={t('blog.pagination')}>
          {list.previousUrl ? <a href={list.previousUrl} rel="prev">{t('blog.previous')}</a> : <span />}
          <span>{t('blog.pageOf', { page: list.pageNumber, count: list.pageCount })}</span>
          {list.nextUrl ? <a href={list.nextUrl} rel="next">{t('blog.next')}</a> : <span />}
        </nav>
      )}
      <p className="feed-link">
        <a href={feedUrl(site)}>{t('blog.feed')}</a>
      </p>
    </div>
  );
}

export function meta({ page, site }: PageProps): PageMeta {
  const list = page.blog as BlogListData;
  const base = list.category ? site.t('blog.categoryTitle', { category: site.t(`blog.categories.${list.category}`) }) : site.t('blog.title');
  const title = list.pageNumber > 1 ? `${base} (${site.t('blog.pageOf', { page: list.pageNumber, count: list.pageCount })})` : base;
  return { title, description: site.t('blog.description'), feed: { url: feedUrl(site), title: `${site.config.site.name} · ${site.t('blog.title')}` } };
}
