/**
 * The stylesheet of the focus classes an image with a focal point carries (content/image-variants.ts
 * `focusClassOf`): the CSP allows no inline style, so the positions are classes of one fixed
 * stylesheet of the engine's, published only when some image has a focal point and linked only by
 * the pages whose markup uses one of its classes (render.ts).
 */
import { focusSteps } from '../content/image-variants.js';
import { engineFile, type EngineFile } from '../islands/assets.js';

/** The stylesheet of the focus classes (a site's own `object-position` on such an image would be overridden). */
export const focusStylesheet: EngineFile = engineFile(
  'focus',
  'css',
  `img.focus{object-position:var(--focus-x,50%) var(--focus-y,50%)}\n${focusSteps.map((step) => `.focus-x-${step}{--focus-x:${step}%}.focus-y-${step}{--focus-y:${step}%}`).join('\n')}\n`,
);

/** Whether rendered markup uses the focus classes (its page then links `focusStylesheet`). */
export const usesFocusClasses = (html: string) => /\bclass="[^"]*\bfocus-x-\d/.test(html);
