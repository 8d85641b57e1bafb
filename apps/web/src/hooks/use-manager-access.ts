import { isHandlerRole } from '@ansim/shared/constants';
import { useCurrentUser } from '../components/header/use-current-user';

/** The client only hides what a member cannot use; the API answers 403 to anyone not a company manager. */
export function useManagerAccess() {
  const { data: user, isPending } = useCurrentUser();
  return { isManager: isHandlerRole(user?.role) && Boolean(user?.company), isPending, user };
}
