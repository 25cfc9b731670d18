/** The stream of one quotation: its creation, favourite flag and share links. */
export const quotationStream = (corporateId: string, id: string) =>
  `quotation:${corporateId}:${id}`;

/** The lock under which a corporate's quotation numbers are drawn (never holds events). */
export const quotationNumberingStream = (corporateId: string) =>
  `quotation-numbering:${corporateId}`;
