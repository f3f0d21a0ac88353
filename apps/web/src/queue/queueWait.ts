import type { WaitForTableSubscription } from '../generated/graphql';

/** The user's place in the line for a table, as the API announces it (waitForTable). */
export type QueuePlace = WaitForTableSubscription['waitForTable'];

/** This page's part in the line for its table ("notify me when free"). */
export type QueueWait =
  | { kind: 'idle' }
  /** Asked to join; the API has not said where yet. */
  | { kind: 'joining' }
  | { kind: 'waiting'; position: number; ahead: string[] }
  /** The table is held for the user until `reservedUntil`: they may start editing it. */
  | { kind: 'yourTurn'; reservedUntil: string | null }
  /** The turn came and went unused: the user is out of the line. */
  | { kind: 'expired' };

export type QueueWaitEvent =
  | { type: 'join' }
  /** The user left the line ("Leave the line", "Not now"), or dismissed the expiry. */
  | { type: 'leave' }
  | { type: 'place'; place: QueuePlace }
  /** The subscription ended (after its last place, or failed). */
  | { type: 'ended' };

export const NOT_IN_LINE: QueueWait = { kind: 'idle' };

/** Whether the user is in the line (or joining it): its subscription is open while so. */
export function inLine(wait: QueueWait): boolean {
  return wait.kind === 'joining' || wait.kind === 'waiting' || wait.kind === 'yourTurn';
}

export function reduceQueueWait(wait: QueueWait, event: QueueWaitEvent): QueueWait {
  switch (event.type) {
    case 'join':
      return inLine(wait) ? wait : { kind: 'joining' };
    case 'leave':
      return NOT_IN_LINE;
    case 'place':
      // A place announced after the user left belongs to a line they are no longer in.
      return inLine(wait) ? placed(event.place) : wait;
    case 'ended':
      // Ending without a last word (a failure) leaves the user out of the line.
      return inLine(wait) ? NOT_IN_LINE : wait;
  }
}

function placed(place: QueuePlace): QueueWait {
  switch (place.state) {
    case 'waiting':
      return {
        kind: 'waiting',
        position: place.position,
        ahead: place.ahead.map((waiter) => waiter.editor),
      };
    case 'yourTurn':
      return { kind: 'yourTurn', reservedUntil: place.reservedUntil };
    case 'acquired':
      // The user is editing now: the edit session takes it from here.
      return NOT_IN_LINE;
    case 'expired':
      return { kind: 'expired' };
  }
}

/** Whole seconds from `now` until `until` (an ISO time), rounded up; never below 0. */
export function secondsLeft(until: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(until) - now) / 1000));
}
