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
export type RoiInputError = 'required' | 'positive' | 'min' | 'max';

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

/** Parses one input as typed; returns the number or why it is not usable. */
export function parseRoiInput(raw: string, bounds: RoiBounds): { value: number } | { error: RoiInputError } {
  const text = raw.trim().replace(',', '.');
  if (text === '') return { error: 'required' };
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) return { error: 'positive' };
  if (value < bounds.min) return { error: 'min' };
  if (value > bounds.max) return { error: 'max' };
  return { value };
}
