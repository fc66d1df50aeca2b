/** One blog post, in the page's language or, when untranslated, in the original with a notice. */
import { article, type BlogPostData, type PageMeta, type PageProps } from 'site/template';
import { feedUrl } from '../layout/blog';

function translationFor({ page, site }: PageProps) {
  const data = page.blog as BlogPostData;
  const post = site.postBySlug(data.slug)!;
  return { post, translation: post.translations[data.contentLocale]! };
}

export default function BlogPost(props: PageProps) {
  const { page, site } = props;
  const { t } = site;
  const { translation } = translationFor(props);
  const untranslated = translation.locale !== page.locale;
  const lang = untranslated ? site.config.locales[translation.locale]!.htmlLang : undefined;
  const base = page.audience ? site.config.audiences[page.audience]!.path : '';
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
            <a className="chip" href={site.href(`${base}/blog/category/${translation.category}`)}>
              {site.t(`blog.categories.${translation.category}`)}
            </a>
            <time dateTime={translation.date}>{site.formatDate(translation.date)}</time>
            <span>
              <span className="visually-hidden">{t('blog.readingTimeLabel')}: </span>
              {t('blog.readingTime', { minutes: translation.readingMinutes })}
            </span>
          </p>
          <h1>{translation.title}</h1>
          <p className="lead">{translation.description}</p>
          <p className="post-author">
            {t('blog.by', { author: translation.author })}
            {translation.updated && <> · {t('blog.updated', { date: site.formatDate(translation.updated) })}</>}
          </p>
        </header>
        <div className="prose" dangerouslySetInnerHTML={{ __html: translation.html }} />
      </article>
      <p>
        <a href={site.href(`${base}/blog`)}>← {t('blog.backToBlog')}</a>
      </p>
    </div>
  );
}

export function meta(props: PageProps): PageMeta {
  const { translation } = translationFor(props);
  return {
    title: translation.title,
    description: translation.description,
    contentLang: translation.locale === props.page.locale ? undefined : translation.locale,
    og: { type: 'article', publishedTime: translation.date, modifiedTime: translation.updated, section: props.site.t(`blog.categories.${translation.category}`) },
    feed: { url: feedUrl(props.site), title: `${props.site.config.site.name} · ${props.site.t('blog.title')}` },
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
      author: translation.author,
      section: site.t(`blog.categories.${translation.category}`),
      inLanguage: site.config.locales[translation.locale]!.htmlLang,
    }),
  ];
}
