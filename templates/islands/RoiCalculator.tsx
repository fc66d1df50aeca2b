/**
 * The ROI calculator for repairers: four inputs and one adjustable assumption (the share of time
 * saved), four outputs, live as the visitor types. Inputs are text fields read by the shared
 * parser, so a decimal comma means what it says on a Norwegian page.
 */
import { useState } from 'react';
import {
  calculateRoi,
  hoursInMonth,
  isPossibleRoi,
  parseRoiInput,
  timeSavedPercentBounds,
  wholeRoiInputs,
  type RoiInputError,
  type RoiInputs,
} from '../layout/roi';

type InputName = keyof RoiInputs;
type FieldName = InputName | 'timeSavedPercent';
const inputNames: InputName[] = ['ordersPerMonth', 'minutesPerOrder', 'hourlyWage', 'revenuePerRepair'];

/** Everything the calculator shows, resolved on the server (labels already in the page's language). */
export interface RoiCalculatorProps {
  /** Prefix of element ids, unique on the page. */
  idPrefix: string;
  intl: string;
  /** The configured share of time saved (0–1), the assumption's starting value. */
  timeSavedShare: number;
  inputs: Record<InputName, { label: string; unit: string; default: number; min: number; max: number; step: number }>;
  /** The assumption as an input: its label, unit and the sentence that explains it (`{percent}`). */
  share: { label: string; unit: string; hint: string };
  outputs: { hoursSaved: string; extraCapacity: string; salarySaving: string; extraEarnings: string };
  hoursValue: string;
  ordersValue: string;
  heading: string;
  results: string;
  /** Says that salary saving and extra earnings are alternatives, not a sum. */
  alternatives: string;
  /** Shown instead of results that cannot be (`{hours}`: the hours in a month). */
  impossible: string;
  errors: Record<RoiInputError, string>;
}

export default function RoiCalculator(props: RoiCalculatorProps) {
  const id = props.idPrefix;
  const number = new Intl.NumberFormat(props.intl, { maximumFractionDigits: 1 });
  // Starting values as the visitor would type them: the locale's decimal mark, no thousands separator.
  const typed = new Intl.NumberFormat(props.intl, { maximumFractionDigits: 2, useGrouping: false });
  const [values, setValues] = useState<Record<FieldName, string>>(() => ({
    ...(Object.fromEntries(inputNames.map((name) => [name, typed.format(props.inputs[name].default)])) as Record<
      InputName,
      string
    >),
    timeSavedPercent: typed.format(Math.round(props.timeSavedShare * 1000) / 10),
  }));
  const parse = (name: FieldName) =>
    name === 'timeSavedPercent'
      ? parseRoiInput(values[name], timeSavedPercentBounds, { intl: props.intl })
      : parseRoiInput(values[name], props.inputs[name], { intl: props.intl, whole: wholeRoiInputs.includes(name) });
  const fieldNames: FieldName[] = [...inputNames, 'timeSavedPercent'];
  const parsed = Object.fromEntries(fieldNames.map((name) => [name, parse(name)])) as Record<
    FieldName,
    ReturnType<typeof parseRoiInput>
  >;
  const valueOf = (name: FieldName) =>
    'value' in parsed[name] ? (parsed[name] as { value: number }).value : undefined;
  const valid = fieldNames.every((name) => valueOf(name) !== undefined);
  const computed = valid
    ? calculateRoi(
        Object.fromEntries(inputNames.map((name) => [name, valueOf(name)])) as unknown as RoiInputs,
        valueOf('timeSavedPercent')! / 100,
      )
    : undefined;
  const possible = computed ? isPossibleRoi(computed) : true;
  const result = possible ? computed : undefined;
  const money = new Intl.NumberFormat(props.intl, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(props.intl, { style: 'percent', maximumFractionDigits: 1 });
  const errorText = (name: FieldName) => {
    const entry = parsed[name];
    if (!('error' in entry)) return undefined;
    const bounds = name === 'timeSavedPercent' ? timeSavedPercentBounds : props.inputs[name];
    return props.errors[entry.error]
      .replace('{min}', number.format(bounds.min))
      .replace('{max}', number.format(bounds.max));
  };

  const field = (name: FieldName, label: string, unit: string, hint?: string) => {
    const error = errorText(name);
    const inputId = `${id}-${name}`;
    const describedBy = [error && `${inputId}-error`, hint && `${inputId}-hint`].filter(Boolean).join(' ');
    return (
      <div className="field" key={name}>
        <label htmlFor={inputId}>{label}</label>
        <div className="input-with-unit">
          <input
            id={inputId}
            name={name}
            type="text"
            inputMode={name === 'ordersPerMonth' ? 'numeric' : 'decimal'}
            autoComplete="off"
            required
            value={values[name]}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy || undefined}
            onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
          />
          <span className="unit">{unit}</span>
        </div>
        {error && (
          <p className="field-error" id={`${inputId}-error`}>
            {error}
          </p>
        )}
        {hint && (
          <p className="field-hint" id={`${inputId}-hint`}>
            {hint}
          </p>
        )}
      </div>
    );
  };

  const shareValue = valueOf('timeSavedPercent');
  const shareHint = props.share.hint.replace(
    '{percent}',
    percent.format((shareValue ?? props.timeSavedShare * 100) / 100),
  );

  return (
    <div className="roi" role="group" aria-label={props.heading}>
      <div className="roi-inputs">
        {inputNames.map((name) => field(name, props.inputs[name].label, props.inputs[name].unit))}
        {field('timeSavedPercent', props.share.label, props.share.unit, shareHint)}
      </div>
      <div className="roi-results" aria-live="polite">
        <h3>{props.results}</h3>
        {!possible && (
          <p className="roi-impossible" role="alert">
            {props.impossible.replace('{hours}', number.format(Math.round(hoursInMonth)))}
          </p>
        )}
        <dl>
          <div>
            <dt>{props.outputs.hoursSaved}</dt>
            <dd data-output="hoursSaved">
              {result ? props.hoursValue.replace('{hours}', number.format(result.hoursSaved)) : '–'}
            </dd>
          </div>
          <div>
            <dt>{props.outputs.extraCapacity}</dt>
            <dd data-output="extraCapacity">
              {result ? props.ordersValue.replace('{count}', number.format(result.extraCapacity)) : '–'}
            </dd>
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
        <p className="roi-alternatives">{props.alternatives}</p>
      </div>
    </div>
  );
}
