import 'i18next';
import type { en } from './en';

// Message keys are checked at compile time against the English messages.
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}
