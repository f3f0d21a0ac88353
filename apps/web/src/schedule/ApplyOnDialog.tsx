import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog';
import { ApplyOnForm, type ApplyOnFormProps } from './ApplyOnForm';

interface ApplyOnDialogProps extends Omit<ApplyOnFormProps, 'explanation'> {
  open: boolean;
  unsaved: number;
}

/** "Apply on…" of the grid: the pending changes become a request the API applies at a time to come. */
export function ApplyOnDialog({ open, unsaved, ...form }: ApplyOnDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} title={t('schedule.title')} onClose={form.onCancel} actions={null}>
      <ApplyOnForm explanation={t('schedule.explained', { count: unsaved })} {...form} />
    </Dialog>
  );
}
