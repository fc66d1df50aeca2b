/**
 * Components in Markdown (issue 48, part 1), through the CLI on tests/fixtures/content-components:
 * a container (`:::callout`, `:::quote`), leaves (`::figure`, `::video`) and text directives
 * (`:badge[…]`) render the site's components (templates/content/) or the engine's, on the server,
 * in the post and in page copy, in both languages; the site's Callout replaces the engine's; the
 * engine's video asks nothing of YouTube or Vimeo before the click, and the policy allows their
 * players' frames; an unknown component and a refused attribute fail `site check` and `site build`
 * at their line and column, leaving the previous dist/ as it was.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const made: string[] = [];
const post = 'content/blog/components/en.md';

async function fixtureSite(edit?: (dir: string) => Promise<void>): Promise<string> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'components-'));
  made.push(dir);
  await cp(join(fixturesRoot, 'content-components'), dir, { recursive: true });
  await edit?.(dir);
  return dir;
}

async function site(dir: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: dir });
    return { code: 0, stderr: stderr + stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stderr: failed.stderr + failed.stdout };
  }
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(
      relative(dir, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    );
  }
  return files;
}

/** The `<article>` of a page: what the templates put around the Markdown. */
const articleOf = (html: string) => /<article[\s\S]*<\/article>/.exec(html)![0];

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('components in Markdown', () => {
  let dir: string;
  let page: string;
  beforeAll(async () => {
    dir = await fixtureSite();
    const built = await site(dir, 'build');
    expect(built.code, built.stderr).toBe(0);
    page = await readFile(join(dir, 'dist', 'blog', 'components', 'index.html'), 'utf8');
  });

  it('renders a text directive with the site component, and leaves prose with colons as text', () => {
    expect(articleOf(page)).toContain(
      '<p>Our new repair counter is open <span class="badge badge-success">New</span>, and so is the old one (10:30 to 18:00, note:this stays text).</p>',
    );
  });

  it("renders a container with the site's Callout, which replaces the engine's, its Markdown sanitised inside", () => {
    expect(articleOf(page)).toContain(
      '<div class="own-callout" data-type="warning"><p>Bring the receipt. <strong>Without it</strong> we cannot alert(1) take the repair.</p>' +
        '<p>A <a href="https://example.org/inside" rel="noopener">link inside</a> and <span class="badge badge-info">Inner</span>.</p></div>',
    );
    expect(articleOf(page)).toContain(
      '<figure class="quote"><blockquote><p>We mend what others throw away.</p></blockquote><figcaption>Ada, tailor</figcaption></figure>',
    );
    expect(page).not.toMatch(/<script>alert|<!--component|<!--slot|site-children|site-image/);
  });

  it("renders the engine's figure with the image pipeline's picture and its caption", () => {
    const figure = /<figure class="site-figure">[\s\S]*?<\/figure>/.exec(page)![0];
    expect(figure).toMatch(
      /^<figure class="site-figure"><picture><source type="image\/avif" srcset="\/assets\/images\/[0-9a-f]{16}-480\.avif 480w, [^"]+" sizes="[^"]+" \/><source type="image\/webp" [^>]+\/><img src="\/assets\/images\/[0-9a-f]{16}-960\.webp" alt="A green square standing in for a jacket" width="1200" height="800" loading="lazy" decoding="async" \/><\/picture><figcaption>A jacket, <em>mended<\/em> at the elbow\.<\/figcaption><\/figure>$/,
    );
  });

  it("renders the engine's video as a link with a local poster: no frame and nothing from the video's site before the click", () => {
    const videos = [...page.matchAll(/<figure class="site-video">[\s\S]*?<\/figure>/g)].map((match) => match[0]);
    expect(videos).toHaveLength(2);
    expect(videos[0]).toMatch(
      /^<figure class="site-video"><a class="site-video-facade" href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ" data-video-embed="https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ\?autoplay=1" data-video-title="Play video"><picture>[\s\S]*<img src="\/assets\/images\/[0-9a-f]{16}-600\.webp" alt="" [^>]*\/><\/picture><span class="site-video-play"><span class="site-video-icon" aria-hidden="true"><\/span><span>Play video \(on YouTube\)<\/span><\/span><\/a><figcaption>How a repair is booked<\/figcaption><\/figure>$/,
    );
    expect(videos[1]).toBe(
      '<figure class="site-video"><a class="site-video-facade" href="https://vimeo.com/76979871" data-video-embed="https://player.vimeo.com/video/76979871?autoplay=1&amp;dnt=1" data-video-title="The workshop"><span class="site-video-poster"></span><span class="site-video-play"><span class="site-video-icon" aria-hidden="true"></span><span>Play video: The workshop (on Vimeo)</span></span></a></figure>',
    );
    // Nothing loads from another origin until the click: no frame, no image, no script, no style.
    expect(page).not.toMatch(/<iframe|<(?:img|script|source)[^>]+(?:src|srcset)="https?:\/\//);
    expect(page).not.toMatch(/<link rel="(?:stylesheet|preload|modulepreload|preconnect)"[^>]+href="https?:\/\//);
  });

  it('links the engine stylesheet and the video script only where an engine component is shown, and allows the players in frame-src', async () => {
    const links = (html: string) =>
      [...html.matchAll(/(?:href|src)="(\/assets\/(?:components|video)\.[0-9a-f]+\.(?:css|js))"/g)].map(
        (match) => match[1],
      );
    const [stylesheet, script] = links(page);
    expect(stylesheet).toMatch(/^\/assets\/components\.[0-9a-f]+\.css$/);
    expect(script).toMatch(/^\/assets\/video\.[0-9a-f]+\.js$/);
    expect(page).toContain(`<script src="${script}" defer></script>`);
    expect(await readFile(join(dir, 'dist', stylesheet!.slice(1)), 'utf8')).toContain('.site-video-facade');
    expect(await readFile(join(dir, 'dist', script!.slice(1)), 'utf8')).toContain("createElement('iframe')");
    // The home page shows only the site's badge: no engine stylesheet, no script.
    const home = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
    expect(home).toContain(
      '<p>The home page\'s copy has a component too: <span class="badge badge-info">Fresh</span>.</p>',
    );
    expect(links(home)).toEqual([]);
    const headers = await readFile(join(dir, 'dist', '_headers'), 'utf8');
    expect(headers).toContain("frame-src 'self' https://player.vimeo.com https://www.youtube-nocookie.com;");
  });

  it("speaks the page's language, and a container's label is its title", async () => {
    const norwegian = articleOf(await readFile(join(dir, 'dist', 'no', 'blog', 'components', 'index.html'), 'utf8'));
    expect(norwegian).toContain(
      '<div class="own-callout" data-type="tip"><p class="own-callout-title">Husk kvitteringen</p><p>Ta med kvitteringen.</p></div>',
    );
    expect(norwegian).toContain('<span>Spill av video (på YouTube)</span>');
  });

  it('leaves the markers out of the feeds, their content kept', async () => {
    const feed = await readFile(join(dir, 'dist', 'blog', 'feed.json'), 'utf8');
    expect(feed).toContain('Our new repair counter is open New,');
    expect(feed).not.toContain('<!--component');
  });

  it("renders the engine's callout where the site has none of its own: a note with its type's word", async () => {
    const engine = await fixtureSite((folder) => rm(join(folder, 'templates', 'content', 'Callout.tsx')));
    const built = await site(engine, 'build');
    expect(built.code, built.stderr).toBe(0);
    const html = await readFile(join(engine, 'dist', 'blog', 'components', 'index.html'), 'utf8');
    expect(html).toContain(
      '<div class="site-callout site-callout-warning" role="note"><p class="site-callout-title"><strong>Warning</strong></p><p>Bring the receipt.',
    );
    const norwegian = await readFile(join(engine, 'dist', 'no', 'blog', 'components', 'index.html'), 'utf8');
    expect(norwegian).toContain(
      '<div class="site-callout site-callout-tip" role="note"><p class="site-callout-title"><strong>Tips</strong>: Husk kvitteringen</p><p>Ta med kvitteringen.</p></div>',
    );
  });
});

describe('a component Markdown names wrongly', () => {
  it('fails site check and site build at the directive and the attribute, naming the known components and what the attribute accepts; dist/ stays as it was', async () => {
    const dir = await fixtureSite();
    expect((await site(dir, 'build')).code).toBe(0);
    const before = await snapshot(join(dir, 'dist'));
    const text = await readFile(join(dir, post), 'utf8');
    await writeFile(
      join(dir, post),
      `${text}\n:::calout{type="note"}\nTypo.\n:::\n\nText :badge[Hot]{tone="danger"} here.\n\n::video{src="https://example.org/clip.mp4"}\n`,
    );
    const line = text.split('\n').length + 1;
    for (const command of ['check', 'build']) {
      const { code, stderr } = await site(dir, command);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain(
        `CONTENT_COMPONENT  ${post}:${line}:1  body  unknown component "calout" (:::calout): there is no templates/content/Calout.tsx  (Known components: badge, callout, figure, quote, video. Did you mean "callout"?)`,
      );
      expect(stderr).toContain(
        `CONTENT_COMPONENT  ${post}:${line + 4}:18  body  badge: the attribute tone="danger" is not accepted (Invalid option: expected one of "info"|"success")  (tone accepts one of "info", "success" (default "info"): its colour.)`,
      );
      expect(stderr).toContain(
        `CONTENT_COMPONENT  ${post}:${line + 6}:9  body  video: the attribute src="https://example.org/clip.mp4" is not accepted (give the address of a YouTube or Vimeo video)  (src accepts text: the address of a YouTube or Vimeo video.)`,
      );
      expect(stderr).toContain('3 errors');
    }
    expect(await snapshot(join(dir, 'dist'))).toEqual(before);
  });

  it('fails on a component of page copy too, in its own file', async () => {
    const dir = await fixtureSite(async (folder) => {
      const file = join(folder, 'content', 'pages', 'home', 'no.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace(':badge[Ny]', ':bagde[Ny]'));
    });
    const { code, stderr } = await site(dir, 'check');
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      'CONTENT_COMPONENT  content/pages/home/no.md:5:40  body  unknown component "bagde" (:bagde)',
    );
    expect(stderr).toContain('Did you mean "badge"?');
  });
});
