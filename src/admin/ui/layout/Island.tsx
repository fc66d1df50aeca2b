/**
 * The engine's side of the islands' marker (the site has its own, templates/layout/Island.tsx, in
 * the same shape): the component rendered here like any other, its props written beside it as
 * JSON (escaped so no value can close the script element). The client entry built for each island
 * name, the engine's as the site's, hydrates every element marked with that name.
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
