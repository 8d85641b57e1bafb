import { PolicyDocument } from './policy-document';

export default function PrivacyPage() {
  return <PolicyDocument kind="privacy" />;
}
