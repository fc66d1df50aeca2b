import { describe, expect, it } from 'vitest';
import type { MarkdownRenderer } from '../../src/content/markdown-cache';
import type { FailedMarkdown, RenderedMarkdown } from '../../src/content/markdown';
import { batchMarkdown } from '../../src/pipeline/runtime';

/** A renderer that records the documents of each call, and renders a text as its upper case. */
function recordingRenderer(): MarkdownRenderer & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async renderAll(texts) {
      calls.push([...texts]);
      return texts.map((text) => ({ words: 1, html: text.toUpperCase() }));
    },
    settled: async () => undefined,
    stats: { parsed: 0, cached: 0 },
  };
}

const nextTurn = () => new Promise((resume) => setImmediate(resume));
const htmlOf = (result: RenderedMarkdown | FailedMarkdown) => ('html' in result ? result.html : 'failed');

describe('the Markdown asked for in one turn of the event loop', () => {
  it('goes to the renderer as one batch at the end of the turn', async () => {
    const inner = recordingRenderer();
    const batched = batchMarkdown(inner, 10);
    const results = Promise.all(['a', 'b', 'c'].map((text) => batched.renderAll([text])));
    expect(inner.calls).toEqual([]);
    await nextTurn();
    expect(inner.calls).toEqual([['a', 'b', 'c']]);
    expect((await results).map(([result]) => htmlOf(result!))).toEqual(['A', 'B', 'C']);
  });

  it('sends its first documents at once when they reach the first batch, and the rest at the end of the turn', async () => {
    const inner = recordingRenderer();
    const batched = batchMarkdown(inner, 4);
    const results = [batched.renderAll(['a']), batched.renderAll(['b', 'c'])];
    // Asked for, not yet sent: one short of the first batch.
    expect(inner.calls).toEqual([]);
    results.push(batched.renderAll(['d', 'e']));
    // The folder that reaches it sends the batch with its own documents, in the order asked.
    expect(inner.calls).toEqual([['a', 'b', 'c', 'd', 'e']]);
    results.push(batched.renderAll(['f']), batched.renderAll(['g', 'h', 'i']));
    // One early batch a turn: the rest waits for the turn's end.
    expect(inner.calls).toHaveLength(1);
    await nextTurn();
    expect(inner.calls).toEqual([
      ['a', 'b', 'c', 'd', 'e'],
      ['f', 'g', 'h', 'i'],
    ]);
    const html = (await Promise.all(results)).map((list) => list.map(htmlOf).join(' '));
    expect(html).toEqual(['A', 'B C', 'D E', 'F', 'G H I']);

    // The next turn may send its first batch early again.
    const later = batched.renderAll(['j', 'k', 'l', 'm']);
    expect(inner.calls).toHaveLength(3);
    expect((await later).map(htmlOf)).toEqual(['J', 'K', 'L', 'M']);
  });

  it('fails only the documents of the batch whose renderer failed', async () => {
    const calls: string[][] = [];
    const batched = batchMarkdown(
      {
        async renderAll(texts) {
          calls.push([...texts]);
          if (texts.includes('bad')) throw new Error('the renderer failed');
          return texts.map((text) => ({ words: 1, html: text }));
        },
        settled: async () => undefined,
        stats: { parsed: 0, cached: 0 },
      },
      2,
    );
    const early = batched.renderAll(['bad', 'x']);
    const late = batched.renderAll(['y']);
    await expect(early).rejects.toThrow('the renderer failed');
    await expect(late).resolves.toEqual([{ words: 1, html: 'y' }]);
    expect(calls).toEqual([['bad', 'x'], ['y']]);
  });

  it('answers each folder once its own documents are rendered, before the rest of the batch', async () => {
    // A renderer that tells the results of the first three documents and holds the rest until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batched = batchMarkdown(
      {
        async renderAll(texts, _plugins, onResult) {
          const results = texts.map((text) => ({ words: 1, html: text.toUpperCase() }));
          results.slice(0, 3).forEach((result, index) => onResult?.(index, result));
          await held;
          return results;
        },
        settled: async () => undefined,
        stats: { parsed: 0, cached: 0 },
      },
      10,
    );
    const answered: string[] = [];
    const first = batched.renderAll(['a', 'b']).then((list) => answered.push(list.map(htmlOf).join(' ')));
    const second = batched.renderAll(['c', 'd']).then((list) => answered.push(list.map(htmlOf).join(' ')));
    const told: string[] = [];
    const third = batched
      .renderAll(['e'], undefined, (index, result) => told.push(`${index} ${htmlOf(result)}`))
      .then((list) => answered.push(list.map(htmlOf).join(' ')));
    await nextTurn();
    // 'a b' are both known; 'c d' waits for 'd', and 'e' for the end of the batch.
    await expect.poll(() => answered).toEqual(['A B']);
    release();
    await Promise.all([first, second, third]);
    expect(answered).toEqual(['A B', 'C D', 'E']);
    expect(told).toEqual(['0 E']);
  });
});
