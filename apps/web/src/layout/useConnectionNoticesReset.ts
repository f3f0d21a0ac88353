import { useEffect } from 'react';
import { useLiveStatus } from '../live/useLiveStatus';
import { CONNECTION, useResolveNotices } from '../ui/Notices';
import { useBrowserOnline } from '../ui/useBrowserOnline';

/** "The server could not be reached" is over once the network and the live connection are back. */
export function useConnectionNoticesReset(): void {
  const online = useBrowserOnline();
  const live = useLiveStatus();
  const resolve = useResolveNotices();
  useEffect(() => {
    if (online && live === 'live') resolve(CONNECTION);
  }, [online, live, resolve]);
}
