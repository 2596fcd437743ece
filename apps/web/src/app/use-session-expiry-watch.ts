import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../config/paths.ts';
import { endSession } from '../lib/end-session.ts';
import { isAuthenticated } from '../lib/session.ts';

/** Part 1 §4 and §9: the token expiry check runs every 10 seconds. */
export const SESSION_CHECK_INTERVAL_MS = 10_000;

/**
 * While signed in, checks the id token every 10 s; once it has expired, clears the session and the
 * query cache and goes to the login screen (part 1 §4 Session).
 */
export function useSessionExpiryWatch(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (!isAuthenticated()) {
        endSession();
        void navigate(paths.login.href(), { replace: true });
      }
    }, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [navigate]);
}
