/** Duplicates (contract `duplicates`): why two subscribers look like the same person, in words; read by the
 * subscriber form's warning and by the Duplicates screen. */
export { duplicateReasonsText } from './duplicate-reasons.ts';
