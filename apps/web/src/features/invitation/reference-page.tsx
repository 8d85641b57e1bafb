import { InvitationIntro } from './invitation-intro';

export default function ReferencePage() {
  return <InvitationIntro kind="reference" />;
}
