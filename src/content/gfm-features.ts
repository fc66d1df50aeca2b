/**
 * Which GFM extensions a Markdown document can possibly use, from a cheap scan of its text (pure).
 * Each extension only ever matches where its trigger is in the text: an autolink literal needs
 * `www.` (or `www\.`), `http`, `mailto:`, `xmpp:`, an `@` or a character reference (`&`); a footnote `[^`; strikethrough a `~`; a table a
 * `|`; a task list item `[ ]` or `[x]`. Leaving the others out of the parser gives the same HTML
 * (tests/unit/gfm-features.test.ts proves it on the CommonMark spec, GFM examples, the site's posts
 * and the benchmark corpus) for less work: the autolink-literal extension alone costs about a
 * fifth of the parse, on every character of text.
 */

/** The GFM extensions, in the order remark-gfm combines them. */
export const gfmFeatures = ['autolinkLiteral', 'footnote', 'strikethrough', 'table', 'taskListItem'] as const;

/** One GFM extension. */
export type GfmFeature = (typeof gfmFeatures)[number];

/** What must be in a document's text for each extension to match anything. */
export const gfmTriggers: Readonly<Record<GfmFeature, RegExp>> = {
  // After parsing, a transform links literals in the text, where `\.` and character references
  // (`&#64;`, `&#46;`) have become `.` and `@`: any `&` counts.
  autolinkLiteral: /www\\?\.|http|mailto:|xmpp:|@|&/i,
  footnote: /\[\^/,
  strikethrough: /~/,
  table: /\|/,
  taskListItem: /\[[\s xX]\]/,
};

/** The extensions whose trigger is in `markdown`, in remark-gfm's order. */
export function gfmFeaturesOf(markdown: string): GfmFeature[] {
  return gfmFeatures.filter((feature) => gfmTriggers[feature].test(markdown));
}
