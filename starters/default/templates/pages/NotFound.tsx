/** The 404 page of each language. */
import type { PageMeta, PageProps } from 'typed-site/template';

export default function NotFound({ site }: PageProps) {
  return (
    <section className="hero">
      <h1>{site.t('notFound.title')}</h1>
      <p className="lead">{site.t('notFound.text')}</p>
      <p>
        <a className="button" href={site.href('/')}>
          {site.t('notFound.home')}
        </a>
      </p>
    </section>
  );
}

export function meta({ site }: PageProps): PageMeta {
  return { title: site.t('notFound.title'), description: site.t('notFound.text') };
}
