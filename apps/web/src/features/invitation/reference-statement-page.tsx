import { StatementPage } from './statement-page';

export default function ReferenceStatementPage() {
  return <StatementPage kind="reference" />;
}
