/**
 * Marks a component as an island: it is rendered here like any component, and its props are
 * written beside it as JSON (escaped so no value can close the script element). The client
 * entry of the island (built by esbuild) hydrates every element marked with its name.
 */
import type { ComponentType } from 'react';
import { serializeJsonForScript } from 'typed-site/template';

export function Island<Props extends object>({ name, component: Component, props }: { name: string; component: ComponentType<Props>; props: Props }) {
  return (
    <>
      <div className="island" data-island={name}>
        <Component {...props} />
      </div>
      <script type="application/json" data-island-props={name} dangerouslySetInnerHTML={{ __html: serializeJsonForScript(props) }} />
    </>
  );
}
