/**
 * The ROI calculator's model (DESIGN.md): one pure function shared by the server render and the
 * browser. Inputs: orders per month O, minutes per order M, hourly wage W (EUR), revenue per
 * repair R (EUR); one assumption, the share of time saved.
 */

/** The four inputs. */
export interface RoiInputs {
  ordersPerMonth: number;
  minutesPerOrder: number;
  hourlyWage: number;
  revenuePerRepair: number;
}

/** The four outputs. Hours are rounded to one decimal, money to whole cents. */
export interface RoiResult {
  hoursSaved: number;
  extraCapacity: number;
  salarySaving: number;
  extraEarnings: number;
}

/** Bounds of one input. */
export interface RoiBounds {
  min: number;
  max: number;
}

/** Why an input is not usable, as a message key under `roi.`. */
export type RoiInputError = 'required' | 'number' | 'whole' | 'positive' | 'min' | 'max';

/** The inputs that count things and so take whole numbers only. */
export const wholeRoiInputs: readonly (keyof RoiInputs)[] = ['ordersPerMonth'];

/** Bounds of the time-saved share as the visitor adjusts it, in percent: a share of 0 or 100 % is not a saving the model can describe. */
export const timeSavedPercentBounds: RoiBounds = { min: 1, max: 99 };

/** The hours in an average month (365.25 days × 24 h / 12): no result can save more. */
export const hoursInMonth = (365.25 * 24) / 12;

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON) * factor) / factor;
};

/**
 * hours saved = O × M × share / 60; extra capacity = floor(hours saved × 60 / M);
 * salary saving = hours saved × W; extra earnings = extra capacity × R.
 */
export function calculateRoi(inputs: RoiInputs, timeSavedShare: number): RoiResult {
  const { ordersPerMonth: O, minutesPerOrder: M, hourlyWage: W, revenuePerRepair: R } = inputs;
  const hoursSaved = (O * M * timeSavedShare) / 60;
  // A tiny tolerance keeps floating-point error (41.99999…) from losing a whole order.
  const extraCapacity = Math.floor((hoursSaved * 60) / M + 1e-9);
  return {
    hoursSaved: round(hoursSaved, 1),
    extraCapacity,
    salarySaving: round(hoursSaved * W, 2),
    extraEarnings: round(extraCapacity * R, 2),
  };
}

/** Options of `parseRoiInput`. */
export interface ParseRoiOptions {
  /** Refuse fractions (orders are counted). */
  whole?: boolean;
  /** The page's number locale (BCP 47, e.g. "nb-NO"): decides whether "1,250" is 1250 or 1.25. */
  intl?: string;
}

/**
 * Parses one input as typed; returns the number or why it is not usable. Spaces (the Norwegian
 * thousands separator) are ignored; a point and a comma are both read as the decimal mark, except
 * that where the locale writes the decimal mark as a point, commas in groups of three
 * ("1,250,000") separate thousands. Anything else ("abc", "1e3", "12abc") is not a number.
 */
export function parseRoiInput(
  raw: string,
  bounds: RoiBounds,
  options: ParseRoiOptions = {},
): { value: number } | { error: RoiInputError } {
  let text = raw.replace(/[\s\u00a0\u202f]/g, '');
  if (text === '') return { error: 'required' };
  if (decimalMarkOf(options.intl) === '.' && /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text))
    text = text.replaceAll(',', '');
  if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/.test(text)) return { error: 'number' };
  const value = Number(text.replace(',', '.'));
  if (value <= 0) return { error: 'positive' };
  if (options.whole && !Number.isInteger(value)) return { error: 'whole' };
  if (value < bounds.min) return { error: 'min' };
  if (value > bounds.max) return { error: 'max' };
  return { value };
}

/** Whether a result is possible at all: no month has more hours to save than it has. */
export function isPossibleRoi(result: RoiResult): boolean {
  return result.hoursSaved <= hoursInMonth;
}

function decimalMarkOf(intl = 'en'): string {
  try {
    return new Intl.NumberFormat(intl).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}
