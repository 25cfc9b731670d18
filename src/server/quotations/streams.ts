/** The stream of one quotation: its creation, favourite flag and share links. */
export const quotationStream = (corporateId: string, id: string) =>
  `quotation:${corporateId}:${id}`;
