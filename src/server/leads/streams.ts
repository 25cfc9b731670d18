/**
 * The event streams of the leads area. One stream per lead; one per contact key, so two writers
 * of one email or phone queue on it (see duplicates.ts). (Logs written before the round robin
 * became a counter also hold `lead-roundrobin:<corporateId>` streams: see round-robin.ts.)
 */
import { createHash } from 'node:crypto';

/** A lead's own stream: every LeadEvent of that lead, in order. */
export const leadStream = (corporateId: string, leadId: string) => `lead:${corporateId}:${leadId}`;

/**
 * The claim stream of one contact key (`email:<normalised>` or `phone:<match key>`); hashed, so
 * no email or phone appears in stream ids.
 */
export function contactClaimStream(corporateId: string, key: string): string {
  const digest = createHash('sha256').update(key).digest('hex');
  return `lead-contact:${corporateId}:${digest}`;
}
