/** `:::callout{type="warning"}` … `:::`: a note, tip or warning around Markdown. */
import { z } from 'zod';
import type { ContentComponentProps } from 'typed-site/template';
import { componentWords } from './words.js';

export const description = 'A note, tip or warning set apart from the text around it.';

export const props = z.object({
  type: z.enum(['note', 'tip', 'warning']).default('note').describe('how strongly it speaks'),
  title: z.string().min(1).optional().describe('its heading (the label of :::callout[…] gives it too)'),
});

export default function Callout({ type, title, children, site }: ContentComponentProps<z.output<typeof props>>) {
  const words = componentWords(site);
  return (
    <div className={`site-callout site-callout-${type}`} role="note">
      <p className="site-callout-title">
        <strong>{words[type]}</strong>
        {title ? `: ${title}` : null}
      </p>
      {children}
    </div>
  );
}
