import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useSession } from '../session/useSession';
import { useTableWithReferences } from '../tables/useTableWithReferences';
import { describeError } from '../ui/describeError';
import { LoadingState } from '../ui/LoadingState';
import { useTableColumns } from './grid/useTableColumns';
import { TableEditor } from './TableEditor';

/** The page of one master table: loads what the editor needs, or says why it cannot. */
export function TablePage() {
  const { t } = useTranslation();
  const { name = '' } = useParams();
  const { data: user } = useSession();
  const tables = useTableWithReferences(name);
  const columns = useTableColumns(name);

  if (!user) return null;
  if (tables.isPending || columns.isPending) return <LoadingState />;
  // A failed refresh keeps the data already shown (and the editor with its unsaved edits).
  const info = tables.data?.[0];
  if (!tables.data || !columns.data || !info) {
    const error = tables.error ?? columns.error;
    return (
      <section className="page">
        <p className="banner banner-error" role="alert">
          {error ? describeError(error, t) : t('table.notFound', { table: name })}
        </p>
        <Link to="/tables">{t('table.backToTables')}</Link>
      </section>
    );
  }
  return (
    <TableEditor
      key={name}
      info={info}
      tables={tables.data}
      tablesFresh={tables.isFetchedAfterMount}
      page={columns.data}
      user={user}
    />
  );
}
