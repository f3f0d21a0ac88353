import type { RefObject } from 'react';
import type { EditDialog } from '../useEditActions';
import { useArrival } from './useArrival';

interface ArrivalDialogOptions {
  /** The session is known and the page shows its buttons (the views load first). */
  known: boolean;
  viewing: boolean;
  mayStart: boolean;
  mayTakeOver: boolean;
  startButton: RefObject<HTMLButtonElement | null>;
  takeOverButton: RefObject<HTMLButtonElement | null>;
  openDialog: (dialog: EditDialog) => void;
}

/**
 * Arriving through the tables page's Edit or the admin page's Take over opens its dialog, as if
 * its button on the table page had been pressed: the dialog gives the focus back to that button.
 * Not before the page shows its buttons, or there is no button to return to.
 */
export function useArrivalDialog(options: ArrivalDialogOptions): void {
  useArrival(options.known, (request) => {
    if (!options.viewing) return;
    if (request === 'start' && options.mayStart) {
      options.startButton.current?.focus();
      options.openDialog('start');
    }
    if (request === 'takeOver' && options.mayTakeOver) {
      options.takeOverButton.current?.focus();
      options.openDialog('takeOver');
    }
  });
}
