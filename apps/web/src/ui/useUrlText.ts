import { useEffect, useRef, useState } from 'react';

/**
 * The text of a field whose value is kept in the URL (a reload or a shared link shows the same).
 * The field shows a state of its own: URL changes are router navigations, rendered as
 * transitions, and a field drawn from the URL loses the keys typed before each one lands (and
 * breaks IME composition). While the field has the focus the URL only follows it; a change made
 * elsewhere (a link, a Clear button) shows in it.
 */
export function useUrlText(urlValue: string) {
  const ref = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(urlValue);
  useEffect(() => {
    if (ref.current !== document.activeElement) setText(urlValue);
  }, [urlValue]);
  return { ref, text, setText };
}
