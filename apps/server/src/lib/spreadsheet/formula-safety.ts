/**
 * Makes a text cell safe for spreadsheets: one starting with `=`, `+`, `-`, `@`, tab or carriage
 * return could run as a formula, so it gets a leading apostrophe (OWASP CSV injection). Used by the
 * CSV and the XLSX exports alike; values that are not strings are returned unchanged.
 */
export function neutraliseFormula<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
