import { PolicyDocument } from './policy-document';

export default function TermsPage() {
  return <PolicyDocument kind="terms" />;
}
