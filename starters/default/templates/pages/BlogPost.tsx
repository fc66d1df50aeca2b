/** One post: title, date, reading time and text, in the language the collection's rules picked. */
import type { CollectionEntryData, PageMeta, PageProps } from 'typed-site/template';

function postOf({ page, site }: PageProps) {
  const data = page.collection as CollectionEntryData;
  return site.entry(data.collection, data.slug)!.translations[data.contentLocale]!;
}

export default function BlogPost(props: PageProps) {
  const { page, site } = props;
  const post = postOf(props);
  const data = page.collection as CollectionEntryData;
  return (
    <article className="prose" lang={post.locale === page.locale ? undefined : post.locale}>
      <h1>{post.title}</h1>
      <p className="muted">
        <time dateTime={post.date}>{site.t('blog.published', { date: site.formatDate(post.date) })}</time> ·{' '}
        {site.t('blog.readingTime', { readingMinutes: post.readingMinutes })}
      </p>
      <div dangerouslySetInnerHTML={{ __html: post.html }} />
      {data.listUrl && (
        <p>
          <a href={data.listUrl}>← {site.t('blog.title')}</a>
        </p>
      )}
    </article>
  );
}

export function meta(props: PageProps): PageMeta {
  const post = postOf(props);
  return {
    title: post.title,
    description: post.description,
    contentLang: post.locale === props.page.locale ? undefined : post.locale,
    og: { type: 'article', publishedTime: post.date, modifiedTime: post.updated },
    image: post.image,
  };
}
