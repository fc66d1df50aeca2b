/** One blog post, in the page's language or, when untranslated, in the original with a notice. */
import { article, type CollectionEntryData, type PageMeta, type PageProps } from 'typed-site/template';
import { BlogCover } from '../illustrations/BlogCover';
import { feedMeta } from '../layout/blog';
import { Picture } from '../layout/Picture';
import { PostEnd, postAudience } from '../layout/PostEnd';

function translationFor({ page, site }: PageProps) {
  const data = page.collection as CollectionEntryData;
  const post = site.entry(data.collection, data.slug)!;
  return { data, translation: post.translations[data.contentLocale]! };
}

export default function BlogPost(props: PageProps) {
  const { page, site } = props;
  const { t } = site;
  const { data, translation } = translationFor(props);
  const untranslated = translation.locale !== page.locale;
  const lang = untranslated ? site.config.locales[translation.locale]!.htmlLang : undefined;
  const category = site.t(`blog.categories.${translation.term}`);
  return (
    <div className="container post-layout">
      {untranslated && (
        <p className="banner banner-info" role="note">
          {t('blog.untranslated')}
        </p>
      )}
      <article className="post" lang={lang}>
        <header className="post-header">
          <p className="post-meta">
            {data.termUrl ? (
              <a className="chip" href={data.termUrl}>
                {category}
              </a>
            ) : (
              <span className="chip">{category}</span>
            )}
            <time dateTime={translation.date}>{site.formatDate(translation.date)}</time>
            <span>
              <span className="visually-hidden">{t('blog.readingTimeLabel')}: </span>
              {t('blog.readingTime', { readingMinutes: translation.readingMinutes })}
            </span>
          </p>
          <h1>{translation.title}</h1>
          <p className="lead">{translation.description}</p>
          <p className="post-author">
            {t('blog.by', { author: String(translation.fields.author) })}
            {translation.updated && <> · {t('blog.updated', { date: site.formatDate(translation.updated) })}</>}
          </p>
        </header>
        {translation.image ? (
          <Picture className="post-image" image={translation.image} sizes="(min-width: 48rem) 46rem, 100vw" priority />
        ) : (
          <BlogCover
            className="post-image"
            slug={data.slug}
            category={translation.term ?? ''}
            subject={typeof translation.fields.cover === 'string' ? translation.fields.cover : undefined}
          />
        )}
        <div className="prose" dangerouslySetInnerHTML={{ __html: translation.html }} />
      </article>
      <PostEnd
        site={site}
        slug={data.slug}
        translation={translation}
        audience={postAudience(site, translation, page.audience)}
        entryPath={page.route.path}
      />
      {data.listUrl && (
        <p>
          <a href={data.listUrl}>← {t('blog.backToBlog')}</a>
        </p>
      )}
    </div>
  );
}

export function meta(props: PageProps): PageMeta {
  const { translation } = translationFor(props);
  return {
    title: translation.title,
    description: translation.description,
    contentLang: translation.locale === props.page.locale ? undefined : translation.locale,
    og: {
      type: 'article',
      publishedTime: translation.date,
      modifiedTime: translation.updated,
      section: props.site.t(`blog.categories.${translation.term}`),
    },
    feed: feedMeta(props.page, props.site),
    image: translation.image,
  };
}

export function structuredData(props: PageProps) {
  const { page, site } = props;
  const { translation } = translationFor(props);
  return [
    article(site.config, {
      headline: translation.title,
      description: translation.description,
      url: page.canonical,
      datePublished: translation.date,
      dateModified: translation.updated,
      author: String(translation.fields.author),
      section: site.t(`blog.categories.${translation.term}`),
      inLanguage: site.config.locales[translation.locale]!.htmlLang,
    }),
  ];
}
