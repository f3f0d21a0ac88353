import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';
import { ImportSteps, type ImportStepsProps } from './ImportSteps';

interface ImportDialogProps extends ImportStepsProps {
  open: boolean;
}

/**
 * Import of a CSV or XLSX file in two steps (three when its header needs mapping to the
 * table's columns): a dry run (uploaded, classified and kept by the server, shown here row by
 * row) and, if it has no errors, Apply, which writes exactly that, all or nothing; with errors,
 * Apply of the valid rows, which leaves the others to download.
 */
export function ImportDialog(props: ImportDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={props.open}
      title={t('import.title', { table: props.table })}
      onClose={props.onClose}
      wide
      actions={null}
    >
      {props.open && <ImportSteps {...props} />}
    </Dialog>
  );
}
