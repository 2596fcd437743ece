import { notifications } from '@mantine/notifications';

/**
 * The one toast helper (part 1 §8 error catalogue): bottom right, 5 seconds (set on the
 * `Notifications` provider), errors titled "Oh Oh!" in red, successes titled "Yeah!" in green.
 */

export const TOAST_AUTO_CLOSE_MS = 5000;

/**
 * The spec's error sentence: "Houston - there was a problem {middle}. Please try again or contact
 * your system administrator." Without a middle part: "Houston - there was a problem. Please ...".
 * `reason`, when given, is a sentence the server wrote for people (e.g. why a reference item cannot
 * be deleted: "The country 'France' is used by 2 subscribers and cannot be deleted.");
 * it goes between the two fixed parts.
 */
export function problemMessage(middle?: string, reason?: string): string {
  const what = middle ? ` ${middle}` : '';
  const trimmed = reason?.trim();
  const why = trimmed ? ` ${/[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`}` : '';
  return `Houston - there was a problem${what}.${why} Please try again or contact your system administrator.`;
}

/**
 * Shows an error toast; `middle` is e.g. "getting the users" or "deleting a user" (part 1 §8);
 * `reason` is an optional sentence for people between the fixed parts (see {@link problemMessage}).
 */
export function notifyError(middle?: string, reason?: string): void {
  notifications.show({
    title: 'Oh Oh!',
    message: problemMessage(middle, reason),
    color: 'red',
    autoClose: TOAST_AUTO_CLOSE_MS,
  });
}

/** Shows a success toast, e.g. "User 'Ann' was created successfully!" (part 1 §8). */
export function notifySuccess(message: string): void {
  notifications.show({
    title: 'Yeah!',
    message,
    color: 'green',
    autoClose: TOAST_AUTO_CLOSE_MS,
  });
}

/** Shows a neutral toast without a title, e.g. "Export cancelled". */
export function notifyInfo(message: string): void {
  notifications.show({
    message,
    color: 'gray',
    autoClose: TOAST_AUTO_CLOSE_MS,
  });
}
