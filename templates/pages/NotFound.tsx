/** The 404 page of each language. */
import type { PageProps } from 'typed-site/template';

export default function NotFound({ site }: PageProps) {
  return (
    <div className="container narrow not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1>{site.t('notFound.title')}</h1>
      <p className="lead">{site.t('notFound.text')}</p>
      <a className="button button-primary" href={site.href('/')}>
        {site.t('notFound.returnHome')}
      </a>
    </div>
  );
}

export function meta({ site }: PageProps) {
  return { title: site.t('notFound.title'), description: site.t('notFound.metaDescription') };
}
