/**
 * The consent banner of a site whose counter sets cookies (`analytics:` GA4, or a counter with
 * `cookies: true`): a tiny script and its stylesheet, published as they are under names made of
 * their text's hash (so the renderer knows them without a build step, like the admin's
 * stylesheet, assets.ts). Plain files rather than an island: the banner needs no React, and an external file
 * keeps script-src free of inline code.
 *
 * The script reads what to load from its own tag: `data-load` (the counter's script), `data-attrs`
 * (that script's attributes, as JSON) and, for GA4, `data-gtag` (the measurement ID: the script
 * then defines `gtag` and sends `gtag('js')` and `gtag('config', id)` before the library loads,
 * which is Google's own bootstrap moved out of an inline script). Until the visitor presses the
 * banner's `[data-consent=granted]` button it loads nothing; the choice ("granted" or "denied") is
 * kept in localStorage under `site-consent`, and any `[data-consent-open]` element (the footer's
 * "Cookie settings") shows the banner again, with focus on its first button and back on the opener
 * after the choice.
 */
import type { ResolvedConfig } from '../config/load.js';
import { engineFile, type EngineFile } from './assets.js';

const script =
  "(function(d,w){var s=d.currentScript,k='site-consent',l,o;" +
  "function load(){if(l)return;l=1;var g=s.getAttribute('data-gtag'),a=JSON.parse(s.getAttribute('data-attrs')||'{}'),e=d.createElement('script'),n;" +
  "if(g){w.dataLayer=w.dataLayer||[];w.gtag=function(){w.dataLayer.push(arguments)};w.gtag('js',new Date());w.gtag('config',g)}" +
  "for(n in a)e.setAttribute(n,a[n]);e.async=true;e.src=s.getAttribute('data-load');d.head.appendChild(e)}" +
  "function banner(){return d.getElementById('site-consent')}" +
  'var c;try{c=w.localStorage.getItem(k)}catch(x){}' +
  "if(c==='granted')load();else if(c!=='denied'&&banner())banner().hidden=false;" +
  "d.addEventListener('click',function(e){var t=e.target.closest&&e.target.closest('[data-consent],[data-consent-open]'),b=banner();if(!t||!b)return;" +
  "if(t.hasAttribute('data-consent-open')){o=t;b.hidden=false;b.querySelector('button').focus();return}" +
  "var v=t.getAttribute('data-consent');try{w.localStorage.setItem(k,v)}catch(x){}" +
  "b.hidden=true;if(v==='granted')load();if(o)o.focus();o=null})})(document,window)\n";

const css = `.site-consent{position:fixed;left:1rem;right:1rem;bottom:1rem;z-index:1000;box-sizing:border-box;max-width:40rem;margin:0 auto;padding:1rem 1.25rem;background:#fff;color:#1a1a1a;border:1px solid #595959;border-radius:.5rem;box-shadow:0 4px 16px rgba(0,0,0,.2)}
.site-consent[hidden]{display:none}
.site-consent p{margin:0 0 .75rem}
.site-consent .site-consent-title{font-weight:700;margin-bottom:.25rem}
.site-consent-actions{display:flex;flex-wrap:wrap;gap:.5rem}
.site-consent button{font:inherit;min-height:2.75rem;padding:.5rem 1.25rem;border:2px solid #1a1a1a;border-radius:.25rem;background:#1a1a1a;color:#fff;cursor:pointer}
[data-consent-open]{font:inherit;color:inherit;background:none;border:0;padding:0;text-decoration:underline;cursor:pointer}
.site-consent button:focus-visible,[data-consent-open]:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
`;

/** The banner's script and stylesheet. */
export const consentFiles: { script: EngineFile; stylesheet: EngineFile } = {
  script: engineFile('consent', 'js', script),
  stylesheet: engineFile('consent', 'css', css),
};

/** Whether the site's counter sets cookies, so it waits for the visitor's consent (and the pages carry the banner). */
export function needsConsent(config: Pick<ResolvedConfig, 'analytics'>): boolean {
  const analytics = config.analytics;
  return analytics?.provider === 'ga4' || (analytics?.provider === 'counter' && analytics.cookies);
}

/** The messages the banner and the footer's link are written from (content/messages/<locale>.yaml). */
export const consentMessageKeys = [
  'consent.title',
  'consent.text',
  'consent.accept',
  'consent.decline',
  'consent.settings',
] as const;
