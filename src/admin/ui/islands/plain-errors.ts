/**
 * The admin's own words for a problem the server reports at a field. The server's messages are
 * `site check`'s (zod's "expected string", the config's dotted paths), written for developers; the
 * screen's copy (`problems:`) says instead what to do there, by field: keys are dotted paths whose
 * `*` stands for one segment ("plans.*.signupUrl"), their texts may name `{placeholders}`
 * the screen fills in (the category names). A field without a plain text keeps the server's message
 * (or, for a setting the site declares, the declaration's `problem`).
 */
import { matchesPattern } from './setting-paths';

/** The copy's text for a field's problem, or undefined when it has none. */
export function plainProblem(
  problems: Readonly<Record<string, string>>,
  field: string | null | undefined,
  fill: Readonly<Record<string, string>> = {},
): string | undefined {
  if (!field) return undefined;
  // "plans[1].price.amount" as the screen names it: "plans.1.price.amount".
  const path = field.replace(/\[(\d+)\]/g, '.$1');
  const key = Object.keys(problems).find((candidate) => matchesPattern(candidate, path));
  return key === undefined ? undefined : problems[key]!.replace(/\{(\w+)\}/g, (all, name: string) => fill[name] ?? all);
}
