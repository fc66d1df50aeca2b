/**
 * The admin's own words for a problem the server reports at a field. The server's messages are
 * `site check`'s (zod's "expected string", the config's dotted paths), written for developers; the
 * screen's copy (`problems:`) says instead what to do there, by field: keys are dotted paths whose
 * `*` stands for one segment ("plans.*.ordersPerMonth"), their texts may name `{placeholders}`
 * the screen fills in (the category names). A field without a plain text keeps the server's message.
 */

/** The copy's text for a field's problem, or undefined when it has none. */
export function plainProblem(problems: Readonly<Record<string, string>>, field: string | null | undefined, fill: Readonly<Record<string, string>> = {}): string | undefined {
  if (!field) return undefined;
  // "plans[1].price.amount" and "data.roi.timeSavedShare" as the screen names them: "plans.1.price.amount", "roi.timeSavedShare".
  const parts = field.replace(/\[(\d+)\]/g, '.$1').replace(/^data\./, '').split('.');
  const key = Object.keys(problems).find((candidate) => {
    const pattern = candidate.split('.');
    return pattern.length === parts.length && pattern.every((part, index) => part === '*' || part === parts[index]);
  });
  return key === undefined ? undefined : problems[key]!.replace(/\{(\w+)\}/g, (all, name: string) => fill[name] ?? all);
}
