import { notifications } from '@mantine/notifications';
import { queryClient } from './query-client.ts';
import { clearSession } from './session.ts';

/**
 * Signs out locally: clears the stored session, every cached query and the toasts still on screen,
 * so nothing of one user's session shows in the next (part 1 §4: "Logout clears the session and
 * cached data"; expiry clears session data).
 */
export function endSession(): void {
  clearSession();
  queryClient.clear();
  notifications.clean();
}
