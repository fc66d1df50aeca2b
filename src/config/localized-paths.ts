/**
 * A route's path per locale in the form of issue 31, `path: { en: /about, no: /om-oss }`, made the
 * one shape the rest of the generator reads: `path` the default locale's, `paths` the other
 * locales' (what `path: /about` with `paths: { no: /om-oss }` says). Pure: the loader turns each
 * problem into an error at its key, and `writtenRouteField` finds a localized path's key in the file.
 */
import { isMap } from '../yaml-package.js';
import type { YamlSource } from '../yaml-source.js';
import type { RouteConfig, ValidatedRoute } from './schema.js';

/** A path map that cannot be made that shape: the key it is at (inside the route), what is wrong and what to do. */
export interface RoutePathProblem {
  code: 'CONFIG_INVALID' | 'UNKNOWN_LOCALE';
  /** The map that holds the offending key, from the route: [] for the route itself, ['path'] for the path map. */
  in: readonly string[];
  key: string;
  message: string;
  hint: string;
}

/** The route with its path map made `path` and `paths`, and the problems of the map (with any, the loader stops before the route is used). */
export function normalizeRoutePath(
  route: ValidatedRoute,
  site: { defaultLocale: string; locales: readonly string[] },
): { route: RouteConfig; problems: RoutePathProblem[] } {
  const { path, ...rest } = route;
  if (typeof path === 'string') return { route: { ...rest, path }, problems: [] };
  const problems: RoutePathProblem[] = [];
  const written = Object.entries(path)
    .map(([locale, localePath]) => `${locale}: ${localePath}`)
    .join(', ');
  if (route.paths !== undefined) {
    problems.push({
      code: 'CONFIG_INVALID',
      in: [],
      key: 'paths',
      message: 'the route gives its path per locale in path: and in paths:',
      hint: `Give each locale's path once: path: { ${written} } alone, or path: with the default locale's path and paths: with the others.`,
    });
  }
  if (route.locale !== undefined) {
    problems.push({
      code: 'CONFIG_INVALID',
      in: [],
      key: 'path',
      message: `a route of one locale (${route.locale}) has one path, not one per locale`,
      hint: 'Give its path as text, such as path: /om-oss.',
    });
  }
  if (path[site.defaultLocale] === undefined) {
    problems.push({
      code: 'CONFIG_INVALID',
      in: [],
      key: 'path',
      message: `the path map has no path for the default locale "${site.defaultLocale}"`,
      hint: `Add the route's path in ${site.defaultLocale} to the map: path: { ${site.defaultLocale}: /…${written ? `, ${written}` : ''} }.`,
    });
  }
  for (const locale of Object.keys(path)) {
    if (!site.locales.includes(locale)) {
      problems.push({
        code: 'UNKNOWN_LOCALE',
        in: ['path'],
        key: locale,
        message: `unknown locale "${locale}" in the path map`,
        hint: `Use the keys under locales: (${site.locales.join(', ')}), or add the locale there.`,
      });
    }
  }
  const others = Object.entries(path).filter(([locale]) => locale !== site.defaultLocale);
  const normalized: RouteConfig = {
    ...rest,
    path: path[site.defaultLocale] ?? '/',
    ...(others.length ? { paths: Object.fromEntries(others) } : {}),
  };
  return { route: normalized, problems };
}

/**
 * A config field as the file writes it: a route's path in another locale, `routes.<i>.paths.<locale>`
 * in the loaded config, is `routes.<i>.path.<locale>` when the route gives a path map.
 */
export function writtenRouteField(source: YamlSource, field: readonly (string | number)[]): (string | number)[] {
  const [routes, index, paths, ...rest] = field;
  if (
    routes !== 'routes' ||
    typeof index !== 'number' ||
    paths !== 'paths' ||
    !isMap(source.doc.getIn(['routes', index, 'path']))
  )
    return [...field];
  return ['routes', index, 'path', ...rest];
}
