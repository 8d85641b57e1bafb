import { useCurrentUser } from '../../components/header/use-current-user';

/** The client only hides what a member cannot use; the API answers 403 to anyone not a company manager. */
export function useManagerAccess() {
  const { data: user, isPending } = useCurrentUser();
  return { isManager: user?.role === 'manager' && Boolean(user.company), isPending, user };
}
