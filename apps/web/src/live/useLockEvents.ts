import { useContext, useEffect, useRef } from 'react';
import { LiveUpdatesContext, type LockEvent } from './liveContext';

/** Calls `onEvent` (the latest one given) with every lock change announced while mounted. */
export function useLockEvents(onEvent: (event: LockEvent) => void): void {
  const { listen } = useContext(LiveUpdatesContext);
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => listen((event) => latest.current(event)), [listen]);
}
