import { useContext } from 'react';
import { type LiveStatus, LiveUpdatesContext } from './liveContext';

export function useLiveStatus(): LiveStatus {
  return useContext(LiveUpdatesContext).status;
}
