import { useQuery } from '@tanstack/react-query';
import { useIsLoggedIn } from '../../lib/login-state';
import { currentUserQuery } from './current-user-query';

export { CURRENT_USER_PATH, currentUserQuery } from './current-user-query';

/** For pages, which sit inside the query provider. */
export function useCurrentUser() {
  const isLoggedIn = useIsLoggedIn();
  return useQuery({ ...currentUserQuery(), enabled: isLoggedIn });
}
