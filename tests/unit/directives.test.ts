/**
 * Components in Markdown (issue 48, part 1), the pure parts: the pipeline's markers for each
 * directive form (content/directives.ts), what stays text, the sanitiser inside a component, where
 * each directive and attribute is written, and the check of names and attributes
 * (content/component-uses.ts) with its messages and positions.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderMarkdownDocument, type RenderedMarkdown } from '../../src/content/markdown';
import {
  acceptsText,
  checkComponentUses,
  componentDirectiveName,
  componentFields,
  componentFileName,
  placeUses,
} from '../../src/content/component-uses';
import { withoutComponentMarkers } from '../../src/content/directives';

async function render(markdown: string): Promise<RenderedMarkdown> {
  const out = await renderMarkdownDocument(markdown);
  if ('error' in out) throw new Error(out.error);
  return out;
}

const modules = {
  Callout: {
    props: z.object({ type: z.enum(['note', 'tip', 'warning']).default('note'), title: z.string().optional() }),
  },
  Badge: { props: z.object({ tone: z.enum(['info', 'success']).default('info') }) },
  VideoPlayer: { props: z.object({ src: z.url(), start: z.coerce.number().int().min(0).optional() }) },
  Plain: {},
};

describe('the directives in the Markdown pipeline', () => {
  it('marks a container, a leaf and a text directive around their rendered content', async () => {
    const { html, components } = await render(
      [
        'Open :badge[New]{tone="success"} today.',
        '',
        ':::callout{type="warning"}',
        'Bring **the receipt**.',
        ':::',
        '',
        '::video-player{src="https://example.org/v" start=3}',
      ].join('\n'),
    );
    expect(html).toBe(
      [
        '<p>Open <!--component badge {"tone":"success"}-->New<!--/component--> today.</p>',
        '<!--component callout {"type":"warning"}--><p>Bring <strong>the receipt</strong>.</p><!--/component-->',
        '<!--component video-player {"src":"https://example.org/v","start":"3"}--><!--/component-->',
      ].join('\n'),
    );
    expect(components?.map((use) => [use.name, use.kind, use.line, use.column])).toEqual(
      expect.arrayContaining([
        ['badge', 'text', 1, 6],
        ['callout', 'container', 3, 1],
        ['video-player', 'leaf', 7, 1],
      ]),
    );
    const video = components!.find((use) => use.name === 'video-player')!;
    expect(video.at).toEqual({ src: [7, 16], start: [7, 44] });
  });

  it('leaves prose with colons as it was, and parses no directive without a colon before a letter', async () => {
    const { html, components } = await render('Open 10:30 to 18:00. Note:this and :smile: stay text.');
    expect(html).toBe('<p>Open 10:30 to 18:00. Note:this and :smile: stay text.</p>');
    expect(components).toBeUndefined();
  });

  it('sanitises the Markdown inside a component and never lets a document write a marker', async () => {
    const { html } = await render(
      [':::callout', 'A <script>alert(1)</script> and [x](javascript:alert(1)) <!--component evil {}-->', ':::'].join(
        '\n',
      ),
    );
    expect(html).not.toMatch(/<script|javascript:|evil/);
    expect(html.match(/<!--component /g)).toHaveLength(1);
  });

  it("gives a container's label as its title and an image attribute a slot with the marked image", async () => {
    const { html, images } = await render('::figure[A caption]{src="jacket.jpg" alt="A jacket"}');
    expect(html).toBe(
      '<!--component figure {"src":"jacket.jpg","alt":"A jacket"}--><!--slot src--><!--image 0--><img src="jacket.jpg" alt="A jacket" /><!--/image--><!--/slot-->A caption<!--/component-->',
    );
    expect(images).toEqual([{ src: 'jacket.jpg', alt: 'A jacket', line: 1, column: 26 }]);
    const labelled = await render(':::callout[Heads up]{type=tip}\nText.\n:::');
    expect(labelled.components![0]!.attributes).toEqual({ type: 'tip', title: 'Heads up' });
    expect(labelled.html).not.toContain('Heads up</p>');
  });

  it('nests components, inner ones inside the outer markers', async () => {
    const { html } = await render('::::callout\n:::callout{type=tip}\nInner :badge[x]\n:::\n::::');
    expect(html).toBe(
      '<!--component callout {}--><!--component callout {"type":"tip"}--><p>Inner <!--component badge {}-->x<!--/component--></p><!--/component--><!--/component-->',
    );
    expect(withoutComponentMarkers(html)).toBe('<p>Inner x</p>');
  });
});

describe('the check of the components a document uses', () => {
  const check = async (markdown: string) => {
    const { components } = await render(markdown);
    return checkComponentUses(placeUses(components!, 5), 'content/blog/a/en.md', modules).map((error) => ({
      where: `${error.file}:${error.line}:${error.column}`,
      code: error.code,
      field: error.field,
      message: error.message,
      hint: error.hint,
    }));
  };

  it('names an unknown component at its line and column, with the known names and the nearest', async () => {
    expect(await check('Text.\n\n:::calout{type=tip}\nx\n:::')).toEqual([
      {
        where: 'content/blog/a/en.md:7:1',
        code: 'CONTENT_COMPONENT',
        field: 'body',
        message: 'unknown component "calout" (:::calout): there is no templates/content/Calout.tsx',
        hint: 'Known components: badge, callout, plain, video-player. Did you mean "callout"?',
      },
    ]);
  });

  it('names a refused attribute, what it accepts, at its own column', async () => {
    expect(await check('Text :badge[Hot]{tone="danger"}.')).toEqual([
      {
        where: 'content/blog/a/en.md:5:18',
        code: 'CONTENT_COMPONENT',
        field: 'body',
        message:
          'badge: the attribute tone="danger" is not accepted (Invalid option: expected one of "info"|"success")',
        hint: 'tone accepts one of "info", "success" (default "info").',
      },
    ]);
  });

  it('reports an undeclared attribute, a missing one and a reserved one, each where it is', async () => {
    const found = await check('::video-player{strat=2 children=x}');
    expect(found.map((each) => [each.where, each.message])).toEqual(
      [
        ['content/blog/a/en.md:5:1', 'video-player needs the attribute src'],
        ['content/blog/a/en.md:5:16', 'video-player has no attribute "strat"'],
        [
          'content/blog/a/en.md:5:24',
          'video-player: "children" cannot be an attribute (the component gets its children from the engine)',
        ],
      ].sort(),
    );
    expect(found.find((each) => each.message.includes('strat'))!.hint).toBe(
      'Its attributes: src, start. Did you mean "start"?',
    );
    expect(await check(':::plain{anything=1}\nx\n:::')).toEqual([]);
  });
});

describe('component names and fields', () => {
  it('maps kebab and camel case to the file name and back', () => {
    expect(componentFileName('callout')).toBe('Callout');
    expect(componentFileName('video-player')).toBe('VideoPlayer');
    expect(componentFileName('videoPlayer')).toBe('VideoPlayer');
    expect(componentDirectiveName('VideoPlayer')).toBe('video-player');
  });

  it('describes the attributes from the props schema, for the admin form and the hints', () => {
    expect(componentFields(modules.VideoPlayer.props)).toEqual([
      { name: 'src', type: 'url', required: true },
      { name: 'start', type: 'number', required: false },
    ]);
    const [type] = componentFields(modules.Callout.props);
    expect(type).toEqual({
      name: 'type',
      type: 'choice',
      required: false,
      options: ['note', 'tip', 'warning'],
      default: 'note',
    });
    expect(acceptsText(type)).toBe('one of "note", "tip", "warning" (default "note")');
  });
});
