/** The ROI calculator for repairers: four inputs, four outputs, live as the visitor types. */
import { useState } from 'react';
import { calculateRoi, parseRoiInput, type RoiInputError, type RoiInputs } from 'site/roi';

type InputName = keyof RoiInputs;
const inputNames: InputName[] = ['ordersPerMonth', 'minutesPerOrder', 'hourlyWage', 'revenuePerRepair'];

/** Everything the calculator shows, resolved on the server (labels already in the page's language). */
export interface RoiCalculatorProps {
  /** Prefix of element ids, unique on the page. */
  idPrefix: string;
  intl: string;
  timeSavedShare: number;
  inputs: Record<InputName, { label: string; unit: string; default: number; min: number; max: number; step: number }>;
  outputs: { hoursSaved: string; extraCapacity: string; salarySaving: string; extraEarnings: string };
  hoursValue: string;
  ordersValue: string;
  heading: string;
  results: string;
  assumption: string;
  errors: Record<RoiInputError, string>;
}

export default function RoiCalculator(props: RoiCalculatorProps) {
  const id = props.idPrefix;
  const [values, setValues] = useState<Record<InputName, string>>(() =>
    Object.fromEntries(inputNames.map((name) => [name, String(props.inputs[name].default)])) as Record<InputName, string>,
  );
  const parsed = Object.fromEntries(inputNames.map((name) => [name, parseRoiInput(values[name], props.inputs[name])])) as Record<InputName, ReturnType<typeof parseRoiInput>>;
  const valid = inputNames.every((name) => 'value' in parsed[name]);
  const result = valid
    ? calculateRoi(Object.fromEntries(inputNames.map((name) => [name, (parsed[name] as { value: number }).value])) as unknown as RoiInputs, props.timeSavedShare)
    : undefined;
  const money = new Intl.NumberFormat(props.intl, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  const number = new Intl.NumberFormat(props.intl, { maximumFractionDigits: 1 });
  const errorText = (name: InputName) => {
    const entry = parsed[name];
    if (!('error' in entry)) return undefined;
    const bounds = props.inputs[name];
    return props.errors[entry.error].replace('{min}', number.format(bounds.min)).replace('{max}', number.format(bounds.max));
  };

  return (
    <div className="roi" role="group" aria-label={props.heading}>
      <div className="roi-inputs">
        {inputNames.map((name) => {
          const input = props.inputs[name];
          const error = errorText(name);
          const inputId = `${id}-${name}`;
          return (
            <div className="field" key={name}>
              <label htmlFor={inputId}>{input.label}</label>
              <div className="input-with-unit">
                <input
                  id={inputId}
                  name={name}
                  type="number"
                  inputMode="decimal"
                  min={input.min}
                  max={input.max}
                  step={input.step}
                  required
                  value={values[name]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${inputId}-error` : undefined}
                  onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
                />
                <span className="unit">{input.unit}</span>
              </div>
              {error && (
                <p className="field-error" id={`${inputId}-error`}>
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <div className="roi-results" aria-live="polite">
        <h3>{props.results}</h3>
        <dl>
          <div>
            <dt>{props.outputs.hoursSaved}</dt>
            <dd data-output="hoursSaved">{result ? props.hoursValue.replace('{hours}', number.format(result.hoursSaved)) : '–'}</dd>
          </div>
          <div>
            <dt>{props.outputs.extraCapacity}</dt>
            <dd data-output="extraCapacity">{result ? props.ordersValue.replace('{count}', number.format(result.extraCapacity)) : '–'}</dd>
          </div>
          <div>
            <dt>{props.outputs.salarySaving}</dt>
            <dd data-output="salarySaving">{result ? money.format(result.salarySaving) : '–'}</dd>
          </div>
          <div>
            <dt>{props.outputs.extraEarnings}</dt>
            <dd data-output="extraEarnings">{result ? money.format(result.extraEarnings) : '–'}</dd>
          </div>
        </dl>
        <p className="roi-assumption">{props.assumption}</p>
      </div>
    </div>
  );
}
