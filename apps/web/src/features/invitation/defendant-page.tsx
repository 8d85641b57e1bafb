import { InvitationIntro } from './invitation-intro';

export default function DefendantPage() {
  return <InvitationIntro kind="defendant" />;
}
