/**
 * The settings' changes of `site.config.yaml` (and of the YAML files the settings also write: a
 * page's copy, the messages) in the words of the settings API, made by the one YAML editor
 * (src/yaml-edit.ts): each changed value is replaced in place, every other byte kept, and the
 * result must read back as exactly the intended data, else the change is refused.
 */
import { editYaml, YamlEditError, type YamlEdit } from '../yaml-edit.js';

/** A map of scalars: added to a list of them (`redirects:`), or a value of its own (a plan's price). */
export type ConfigEntry = Readonly<Record<string, string | number>>;

/**
 * A value the settings write: a scalar, null to remove the key, or a map of scalars (written as a
 * flow map, `{ amount: 49, currency: EUR, period: month }`, in the place of a scalar or a flow map).
 */
export type ConfigValue = string | number | boolean | null | ConfigEntry;

/**
 * One change: the value at a path of keys and list indexes (`["plans", 1, "ordersPerMonth"]`), a
 * scalar added to (`append`) or taken out of (`remove`) the list at the path, or an entry added to
 * (`appendEntry`) or taken out of (`removeEntry`, by index) a list of maps.
 */
export type ConfigChange =
  | { path: readonly (string | number)[]; value: ConfigValue }
  | { path: readonly (string | number)[]; append: string | number }
  | { path: readonly (string | number)[]; remove: string | number }
  | { path: readonly (string | number)[]; appendEntry: ConfigEntry }
  | { path: readonly (string | number)[]; removeEntry: number };

/** An edit that cannot be made in place (a missing parent), or whose result would not read back as intended. */
export { YamlEditError as ConfigEditError };

/** The YAML editor's edit of a change. */
function editOf(change: ConfigChange): YamlEdit {
  const { path } = change;
  if ('value' in change)
    return change.value === null ? { op: 'delete', path } : { op: 'set', path, value: change.value };
  if ('append' in change) return { op: 'append', path, value: change.append };
  if ('appendEntry' in change) return { op: 'append', path, value: change.appendEntry };
  if ('remove' in change) return { op: 'remove', path, value: change.remove };
  return { op: 'delete', path: [...path, change.removeEntry] };
}

/**
 * The config's text with the changes made in place. Throws a ConfigEditError for a change that
 * cannot be made so, or when the result would not read back as the intended data.
 */
export function editConfigText(text: string, changes: readonly ConfigChange[]): string {
  return editYaml(text, changes.map(editOf));
}
