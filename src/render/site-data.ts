/**
 * The site's own facts: the config's free-form `data:` block, checked by the schema the site's
 * layout exports (templates/layout/Layout.tsx `export { … as data }`), so a typo there is a config
 * error naming the file, the field and its line rather than a template failing somewhere.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError, SiteErrors } from '../errors.js';
import { issueToErrors, parseYaml } from '../yaml-source.js';
import type { TemplateSet } from './types.js';

const checked = new WeakMap<ResolvedConfig, WeakMap<object, Record<string, unknown>>>();

/** `config.data` as the layout's `data` schema parses it (once per config and schema); throws SiteErrors positioned in the config file. */
export function siteDataOf(config: ResolvedConfig, templates: Pick<TemplateSet, 'data'>): Record<string, unknown> {
  const schema = templates.data;
  if (!schema) return config.data;
  let bySchema = checked.get(config);
  const known = bySchema?.get(schema);
  if (known) return known;
  const result = schema.safeParse(config.data);
  if (!result.success) {
    // Read again only to position the errors: the config as loaded keeps its values, not its YAML.
    const text = readConfigText(config);
    const { source } = parseYaml(text, config.file);
    const hint =
      'templates/layout/Layout.tsx exports the schema of data: (as `data`); follow it, or change it with the templates that read site.data.';
    const errors = result.error.issues.flatMap((issue) =>
      issueToErrors(source, { ...issue, path: ['data', ...issue.path] }, 'CONFIG_INVALID'),
    );
    throw new SiteErrors(
      errors.map(
        (error) =>
          new SiteError({
            code: error.code,
            message: error.message,
            file: error.file,
            line: error.line,
            column: error.column,
            field: error.field,
            hint,
          }),
      ),
    );
  }
  if (!bySchema) checked.set(config, (bySchema = new WeakMap()));
  bySchema.set(schema, result.data);
  return result.data;
}

function readConfigText(config: ResolvedConfig): string {
  try {
    return readFileSync(resolve(config.file), 'utf8');
  } catch {
    return '';
  }
}
