/**
 * The components of Markdown put in place in a rendered page: each `<!--component name {attributes}-->`
 * … `<!--/component-->` the Markdown pipeline left (content/directives.ts), wherever a template
 * placed the document's HTML, becomes the HTML of the site's component (templates/content/<Name>.tsx,
 * or the engine's), rendered on the server with `renderToString`: its attributes as its `props`
 * schema outputs them, the HTML between the markers as `children`, the pictures of its image
 * attributes (`<!--slot src-->…<!--/slot-->`) as `images`. Inner components are rendered first.
 * A component the build's check refused (content/component-uses.ts) is left as its content.
 */
import { lazyPackage } from '../lazy-package.js';
import { componentOf } from '../content/component-uses.js';
import type { SiteContext, TemplateSet } from './types.js';

const react = lazyPackage<typeof import('react')>('react');
const reactServer = lazyPackage<typeof import('react-dom/server')>('react-dom/server');

/** Where a component's children go in its rendered HTML: an element no component writes itself. */
const childrenMark = '<site-children></site-children>';
const markerPattern = /<!--(component ([\w-]+) ([^>]*?)|\/component|slot ([\w:.-]+)|\/slot)-->/g;

/** Whether HTML holds components to put in place. */
export function hasComponentMarkers(html: string): boolean {
  return html.includes('<!--component ');
}

interface Frame {
  name: string;
  attributes: Record<string, string>;
  parts: string[];
  slots: Record<string, string>;
  slot?: { name: string; parts: string[] };
}

/**
 * `html` with every component in place, and the names (file names) of the components it rendered.
 * A component's own throw goes through to the page's render, which reports it at its line.
 */
export function renderContentComponents(
  html: string,
  templates: Pick<TemplateSet, 'components'>,
  site: SiteContext,
): { html: string; used: Set<string> } {
  const used = new Set<string>();
  if (!hasComponentMarkers(html)) return { html, used };
  const root: Frame = { name: '', attributes: {}, parts: [], slots: {} };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1]!;
  const write = (text: string) => {
    const frame = top();
    (frame.slot ? frame.slot.parts : frame.parts).push(text);
  };
  let last = 0;
  for (const match of html.matchAll(markerPattern)) {
    write(html.slice(last, match.index));
    last = match.index + match[0].length;
    const [, body, name, json, slot] = match;
    if (name !== undefined) {
      stack.push({ name, attributes: parseAttributes(json!), parts: [], slots: {} });
    } else if (slot !== undefined) {
      top().slot = { name: slot, parts: [] };
    } else if (body === '/slot') {
      const frame = top();
      if (frame.slot) frame.slots[frame.slot.name] = frame.slot.parts.join('');
      frame.slot = undefined;
    } else if (stack.length > 1) {
      const frame = stack.pop()!;
      write(renderOne(frame, templates, site, used));
    }
  }
  write(html.slice(last));
  // Markers left open (never from the pipeline): their content as it is.
  while (stack.length > 1) {
    const frame = stack.pop()!;
    write(frame.parts.join(''));
  }
  return { html: root.parts.join(''), used };
}

function parseAttributes(json: string): Record<string, string> {
  try {
    const value = JSON.parse(json) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** One component's HTML, or its content when it is unknown or refuses its attributes (the check reported it). */
function renderOne(
  frame: Frame,
  templates: Pick<TemplateSet, 'components'>,
  site: SiteContext,
  used: Set<string>,
): string {
  const children = frame.parts.join('');
  const module = componentOf(templates.components, frame.name);
  if (!module) return children;
  const parsed = module.props
    ? module.props.safeParse(frame.attributes)
    : { success: true as const, data: frame.attributes };
  if (!parsed.success) return children;
  const { createElement } = react();
  const images: Record<string, unknown> = {};
  const slotHtml = new Map<string, string>();
  for (const [name, picture] of Object.entries(frame.slots)) {
    const mark = `<site-image data-slot="${name}"></site-image>`;
    slotHtml.set(mark, picture);
    images[name] = createElement('site-image', { 'data-slot': name });
  }
  const hasChildren = children.trim() !== '';
  const props = {
    ...(parsed.data as Record<string, unknown>),
    children: hasChildren ? createElement('site-children') : undefined,
    images,
    site,
  };
  for (const [name, candidate] of Object.entries(templates.components)) if (candidate === module) used.add(name);
  let html = reactServer().renderToString(createElement(module.default as never, props as never));
  if (hasChildren) html = html.split(childrenMark).join(children);
  for (const [mark, picture] of slotHtml) html = html.split(mark).join(picture);
  return html;
}
