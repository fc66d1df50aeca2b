/** The home page: its copy (content/pages/home/<locale>.yaml) and the newest posts. */
import { z, type PageProps } from 'typed-site/template';

const text = z.string().min(1);

export const content = z.strictObject({
  title: text,
  description: text,
  heading: text,
  lead: text,
  latest: text,
});
type Content = z.infer<typeof content>;

export default function Home({ content, site }: PageProps<Content>) {
  const posts = site.entries('blog').slice(0, 3);
  return (
    <>
      <section className="hero">
        <h1>{content.heading}</h1>
        <p className="lead">{content.lead}</p>
      </section>
      {posts.length > 0 && (
        <section aria-labelledby="latest">
          <h2 id="latest">{content.latest}</h2>
          <ul className="cards">
            {posts.map((entry) => {
              const post = site.translationOf(entry);
              return (
                <li key={entry.slug} className="card">
                  <h3>
                    <a href={site.href(`/blog/${entry.slug}`)}>{post.title}</a>
                  </h3>
                  <p>{post.description}</p>
                  <p className="muted">
                    <time dateTime={post.date}>{site.formatDate(post.date)}</time>
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}
