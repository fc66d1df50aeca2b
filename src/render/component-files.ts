/**
 * The files of the engine's content components (content/components/): one stylesheet for the
 * three, and the video's tiny script, published as they are under names made of their text's hash
 * (as the consent banner's are, islands/consent.ts), when the site's Markdown uses a component; a
 * page links them only when it shows an engine component (render.ts). Plain files rather than an
 * island: a click that swaps a link for a frame needs no React, and an external file keeps
 * script-src free of inline code. The players' origins are what a page with a video allows in
 * frame-src, and the site's policy when its Markdown uses `video` (targets' headers).
 */
import { engineFile, type EngineFile } from '../islands/assets.js';

/** Where the video's player comes from after the click (Video.tsx): YouTube's privacy-enhanced player and Vimeo's. */
export const videoFrameSources: readonly string[] = ['https://player.vimeo.com', 'https://www.youtube-nocookie.com'];

/**
 * On a click (not with a modifier key, which opens the link in a tab) on a video's link, the link
 * is replaced by the player's frame, which takes the focus; nothing of the video's site loads before.
 */
const script =
  "(function(d){d.addEventListener('click',function(e){var a=e.target.closest&&e.target.closest('a[data-video-embed]');" +
  'if(!a||e.defaultPrevented||e.button!==0||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;e.preventDefault();' +
  "var f=d.createElement('iframe');f.src=a.getAttribute('data-video-embed');f.title=a.getAttribute('data-video-title')||'';" +
  "f.className='site-video-frame';f.allow='autoplay; encrypted-media; fullscreen; picture-in-picture';f.allowFullscreen=true;" +
  "f.referrerPolicy='strict-origin-when-cross-origin';a.replaceWith(f);f.focus()})})(document)\n";

const css = `.site-callout{margin:1.5rem 0;padding:1rem 1.25rem;border:1px solid #8c8c8c;border-inline-start-width:.375rem;border-radius:.375rem;background:#f6f7f9;color:inherit}
.site-callout>:last-child{margin-bottom:0}
.site-callout-title{margin:0 0 .5rem}
.site-callout-note{border-color:#1a5fb4;background:#eef4fb}
.site-callout-tip{border-color:#26734d;background:#eef7f1}
.site-callout-warning{border-color:#9c5700;background:#fdf5e8}
.site-figure{margin:1.5rem 0}
.site-figure img{display:block;max-width:100%;height:auto}
.site-figure figcaption,.site-video figcaption{margin-top:.5rem;font-size:.9em;color:#4a4a4a}
.site-video{margin:1.5rem 0}
.site-video-facade,.site-video-frame{display:block;position:relative;width:100%;aspect-ratio:16/9;border:0;border-radius:.375rem;overflow:hidden;background:#1a1a1a;color:#fff}
.site-video-facade img,.site-video-poster{display:block;width:100%;height:100%;object-fit:cover}
.site-video-poster{background:linear-gradient(135deg,#2b2b2b,#1a1a1a)}
.site-video-play{position:absolute;inset-inline:0;inset-block-end:0;display:flex;align-items:center;gap:.75rem;padding:1rem 1.25rem;background:rgba(0,0,0,.72);color:#fff;font-weight:600;text-decoration:underline}
.site-video-icon{flex:none;width:0;height:0;border-top:.6rem solid transparent;border-bottom:.6rem solid transparent;border-left:1rem solid currentColor}
.site-video-facade:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
.site-video-facade:hover .site-video-play{background:rgba(0,0,0,.85)}
`;

/** The stylesheet of the engine's content components and the video's script. */
export const componentFiles: { stylesheet: EngineFile; videoScript: EngineFile } = {
  stylesheet: engineFile('components', 'css', css),
  videoScript: engineFile('video', 'js', script),
};
