/** The streams of the appointments area. */

/** One appointment (core/appointment.ts): every change of it, in order. */
export const appointmentStream = (corporateId: string, appointmentId: string) =>
  `appointment:${corporateId}:${appointmentId}`;
