// Browser notifications exist only in secure contexts (HTTPS, localhost); elsewhere the in-page
// prompt and the tab title are all the user gets.
const supported = () => typeof Notification !== 'undefined';

/** Asks whether the app may notify the user, unless they have answered already. */
export function askToNotify(): void {
  // Asked from the click that joins the line: browsers ignore requests made without a gesture.
  if (supported() && Notification.permission === 'default') void Notification.requestPermission();
}

/** Notifies the user, if they allowed it; clicking the notification brings the tab forward. */
export function showTurnNotification(title: string, body: string, tag: string): () => void {
  if (!supported() || Notification.permission !== 'granted') return () => {};
  const notification = new Notification(title, { body, tag });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
  return () => notification.close();
}
