/** The current user (part 1 §3 Session data, §6 Roles): the signed-in user of this browser session and the
 * role checks of the navigation and the route guards. The session itself (tokens, storage) stays in
 * `lib/session.ts`; this is how features and screens read who is signed in. */
export {
  type CurrentUser,
  getCurrentUser,
  isAdministrator,
  useCurrentUser,
} from './current-user.ts';
