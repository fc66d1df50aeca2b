/**
 * A drawn cover for a blog post that has no photo: the subject its front matter names with `cover:`
 * (a tailor shop's counter, a city's repair network, a claim portal, …), else its category's motif
 * (loops for circularity, a dashboard for software, garment tags for retail, needle and thread for
 * repairers' stories), in its category's colours and laid out from the post's slug, so every post
 * has a cover of its own and the same post always gets the same one. Decoration: the post's title
 * is beside it.
 */
import { height, type Palette, randomOf, width } from './cover-kit';
import { categoryMotifs, loops } from './cover-motifs';
import { subjects } from './cover-subjects';

/** Colours of each category's cover: background, soft shape, strong shape (the audience accents). */
const palettes: Record<string, Palette> = {
  circularity: { ground: '#e3f1ea', soft: '#b9dcc8', strong: '#0f5132' },
  saas: { ground: '#e6ecf5', soft: '#bccbe3', strong: '#1e3a66' },
  retail: { ground: '#fbeee4', soft: '#f1cfb4', strong: '#a8480b' },
  'repairer-stories': { ground: '#fdf0d5', soft: '#f3d79c', strong: '#7a4a00' },
};

/**
 * The cover of the post `slug` in `category`: the motif its front matter names (`subject`), else
 * its category's (an unknown category gets the loops, in the brand's green).
 */
export function BlogCover({
  slug,
  category,
  subject,
  className,
}: {
  slug: string;
  category: string;
  subject?: string | undefined;
  className?: string;
}) {
  const colours = palettes[category] ?? palettes.circularity!;
  // The config declares cover: as a select of these names, so the build refuses another at its line; this guards a template's own call.
  if (subject !== undefined && !(subject in subjects))
    throw new Error(
      `the blog post "${slug}" names the cover "${subject}"; use one of ${Object.keys(subjects).join(', ')}, or leave cover: out for its category's`,
    );
  const motif = subject === undefined ? (categoryMotifs[category] ?? loops) : subjects[subject]!;
  return (
    <svg
      className={className ? `blog-cover ${className}` : 'blog-cover'}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      aria-hidden="true"
      focusable="false"
    >
      <rect width={width} height={height} fill={colours.ground} />
      {motif(randomOf(slug), colours)}
    </svg>
  );
}
