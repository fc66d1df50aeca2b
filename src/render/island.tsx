/**
 * Marks a component as an island (`Island` of typed-site/template): it is rendered here like any
 * component, and its props are written beside it as JSON (escaped so no value can close the
 * script element). The client entry built for each island name, a site's (templates/islands/) as
 * the engine's (the admin's screens), hydrates every element marked with that name.
 */
import type { ComponentType } from 'react';
import { serializeJsonForScript } from './html.js';

export function Island<Props extends object>({
  name,
  component: Component,
  props,
}: {
  name: string;
  component: ComponentType<Props>;
  props: Props;
}) {
  return (
    <>
      <div className="island" data-island={name}>
        <Component {...props} />
      </div>
      <script
        type="application/json"
        data-island-props={name}
        dangerouslySetInnerHTML={{ __html: serializeJsonForScript(props) }}
      />
    </>
  );
}
