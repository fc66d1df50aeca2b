/**
 * `markdown.sanitize`: what a site adds to the Markdown sanitiser's allow-list (GitHub's schema,
 * see content/sanitize-schema.ts), in hast-util-sanitize's shape: `tagNames`, `attributes` per tag
 * (or `*` for every tag), each a name or `[name, ...allowed values]`, and `protocols` per URL
 * attribute. What would let a document run script or restyle the page is refused here, with the
 * config's position, rather than allowed and stripped in silence: the tags and attributes below,
 * every event handler (`on…`), and the `javascript:`, `vbscript:` and `data:` protocols.
 */
import { z } from 'zod';

/** Tags no extension may allow: they run script, load another document, or change how the page is read. */
export const refusedSanitizeTags: ReadonlySet<string> = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'meta',
  'form',
  'noscript',
  'template',
  // SVG's animation elements can set another element's href to a `javascript:` URL.
  'animate',
  'set',
  'animatemotion',
  'animatetransform',
  'handler',
  'listener',
]);

/** Attributes no extension may allow besides the event handlers: inline style (the CSP refuses it anyway), a frame's document, a button's form target. */
export const refusedSanitizeAttributes: ReadonlySet<string> = new Set(['style', 'srcdoc', 'formaction']);

/** Protocols no extension may allow: they run script or carry a document of their own. */
export const refusedSanitizeProtocols: ReadonlySet<string> = new Set(['javascript', 'vbscript', 'data']);

/** Why an attribute name is refused, or undefined when it may be allowed. */
export function refusedAttributeReason(name: string): string | undefined {
  const plain = name.toLowerCase().replace(/-/g, '');
  if (plain.startsWith('on')) return `"${name}" is an event handler: it would run script in the visitor's browser`;
  if (refusedSanitizeAttributes.has(plain))
    return `"${name}" cannot be allowed: ${plain === 'style' ? "inline style is refused by the site's Content-Security-Policy, and can restyle the page" : 'it loads or sends to another document'}`;
  return undefined;
}

const tagName = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9-]*$/, 'give a tag name such as "span" or "math"')
  .refine((tag) => !refusedSanitizeTags.has(tag.toLowerCase()), {
    error: (issue) => `<${String(issue.input)}> cannot be allowed: it can run script or load another document`,
  });

/** An attribute as hast names it (`className`, `ariaHidden`, `dataCallout`); `class`, `for`, `aria-*` and `data-*` are understood too. */
const attributeName = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9-]*$/, 'give an attribute name such as "className" or "ariaHidden"')
  .refine((name) => refusedAttributeReason(name) === undefined, {
    error: (issue) => refusedAttributeReason(String(issue.input))!,
  });

/** An attribute allowed with any value, or `[name, ...values]` allowed with those values only. */
const attributeEntry = z.union([
  attributeName,
  z.tuple([attributeName], z.union([z.string(), z.number(), z.boolean()])),
]);

const protocol = z
  .string()
  .regex(/^[a-z][a-z0-9+.-]*$/, 'give a protocol without its colon, such as "ftp"')
  .refine((name) => !refusedSanitizeProtocols.has(name), {
    error: (issue) =>
      `the ${String(issue.input)}: protocol cannot be allowed: its URLs run script or carry a document of their own`,
  });

/** The schema of `markdown.sanitize`. */
export const sanitizeExtensionSchema = z
  .strictObject({
    tagNames: z
      .array(tagName)
      .default([])
      .describe(
        "Tags allowed besides GitHub's (a plugin's <math>, <svg> or <figure>); never script, style, iframe, object, embed, form, base, link, meta, noscript, template or SVG animation",
      ),
    attributes: z
      .record(z.union([z.literal('*'), tagName]), z.array(attributeEntry))
      .default({})
      .describe(
        'Attributes allowed per tag ("*": on every tag), as hast names them (className, ariaHidden, tabIndex; class, for, aria-* and data-* are understood too): a name allows any value, [name, value, ...] only those values (classes one by one). Never on… event handlers, style, srcdoc or formaction',
      ),
    protocols: z
      .record(attributeName, z.array(protocol))
      .default({})
      .describe(
        'URL protocols allowed per attribute besides the defaults (href: http, https, mailto, tel, irc, ircs, xmpp; src: http, https); never javascript, vbscript or data',
      ),
  })
  .describe(
    "Additions to the allow-list of the sanitiser every Markdown document goes through after its rehype plugins (GitHub's schema), so a plugin's classes and attributes survive it",
  );

/** `markdown.sanitize` as the config gives it, defaults filled. */
export type SanitizeExtension = z.output<typeof sanitizeExtensionSchema>;

/** Whether an extension adds anything. */
export function isEmptySanitizeExtension(extension: SanitizeExtension | undefined): boolean {
  return (
    !extension ||
    (!extension.tagNames.length &&
      !Object.keys(extension.attributes).length &&
      !Object.keys(extension.protocols).length)
  );
}
