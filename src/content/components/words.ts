/** The words of the engine's content components, in English and Norwegian (English for any other language). */
import type { SiteContext } from 'typed-site/template';

const english = {
  note: 'Note',
  tip: 'Tip',
  warning: 'Warning',
  play: 'Play video',
  on: 'on',
};

const norwegian: typeof english = {
  note: 'Merk',
  tip: 'Tips',
  warning: 'Advarsel',
  play: 'Spill av video',
  on: 'på',
};

/** The words for the language of the page `site` renders. */
export function componentWords(site: Pick<SiteContext, 'config' | 'locale'>): typeof english {
  const language = (site.config.locales[site.locale]?.htmlLang ?? site.locale).toLowerCase();
  return /^(no|nb|nn)(-|$)/.test(language) ? norwegian : english;
}
