/** The streams of the check-in area. */

/** One adviser's check-ins in one corporate (core/check-in.ts): one active at a time. */
export const checkInStream = (corporateId: string, userId: string) =>
  `check-in:${corporateId}:${userId}`;

/** A showroom's guest list (core/showroom-guests.ts). */
export const guestListStream = (corporateId: string, showroomId: string) =>
  `showroom-guests:${corporateId}:${showroomId}`;
