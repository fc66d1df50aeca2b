import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTerminalProgress, logWarning } from '../../src/logger';

/** A stream that keeps what is written, and a clock the test moves. */
function terminal(isTTY: boolean) {
  let text = '';
  let now = 0;
  return {
    stream: { isTTY, write: (chunk: string) => ((text += chunk), true) },
    now: () => now,
    advance: (ms: number) => (now += ms),
    text: () => text,
  };
}

describe('the progress of a long build', () => {
  const ci = process.env.CI;
  beforeEach(() => {
    delete process.env.CI;
  });
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  });

  it('prints nothing for a build that ends before the threshold', () => {
    const out = terminal(false);
    const progress = createTerminalProgress({ ...out, afterMs: 3000, everyMs: 5000 });
    const render = progress.begin('render', 10_000, 'pages');
    for (let page = 0; page < 10_000; page++) {
      out.advance(0.2);
      render.tick();
    }
    render.end();
    expect(out.text()).toBe('');
  });

  it('prints plain lines with the counts every interval past the threshold, and each stage its last count', () => {
    const out = terminal(false);
    const progress = createTerminalProgress({ ...out, afterMs: 3000, everyMs: 5000 });
    const render = progress.begin('render', 10_000, 'pages');
    for (let page = 0; page < 10_000; page++) {
      out.advance(1);
      render.tick();
    }
    render.end();
    const write = progress.begin('write', 30_000, 'files');
    write.tick(30_000);
    write.end();
    expect(out.text().split('\n')).toEqual([
      'render 3,000/10,000 pages',
      'render 8,000/10,000 pages',
      'render 10,000/10,000 pages',
      'write 30,000/30,000 files',
      '',
    ]);
  });

  it('shows the stages under way together, and on a terminal redraws one line in place', () => {
    const out = terminal(true);
    const progress = createTerminalProgress({ ...out, afterMs: 0, everyMs: 5000 });
    const render = progress.begin('render', 2000, 'pages');
    const cards = progress.begin('social images', 100, 'cards');
    render.tick(1000);
    out.advance(50);
    cards.tick(10);
    out.advance(100);
    cards.tick(10);
    cards.end();
    render.end();
    expect(out.text()).toBe(
      [
        '\r\u001b[Krender 1,000/2,000 pages · social images 0/100 cards',
        '\r\u001b[Krender 1,000/2,000 pages · social images 20/100 cards',
        '\r\u001b[Ksocial images 20/100 cards\n',
        '\r\u001b[Krender 1,000/2,000 pages\n',
      ].join(''),
    );
  });

  it('clears its unfinished line on the terminal before a warning, and draws it again on the next count', () => {
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    let text = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((text += String(chunk)), true));
    try {
      let now = 0;
      const progress = createTerminalProgress({ afterMs: 0, everyMs: 5000, now: () => now });
      const render = progress.begin('render', 10, 'pages');
      render.tick();
      logWarning('a warning');
      now += 100;
      render.tick();
      render.end();
      expect(text.replace(/\u001b\[\d+m/g, '')).toBe(
        '\r\u001b[Krender 1/10 pages\r\u001b[Kwarning  a warning\n\r\u001b[Krender 2/10 pages\r\u001b[Krender 2/10 pages\n',
      );
    } finally {
      write.mockRestore();
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
    }
  });
});
