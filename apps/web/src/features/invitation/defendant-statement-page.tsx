import { StatementPage } from './statement-page';

export default function DefendantStatementPage() {
  return <StatementPage kind="defendant" />;
}
