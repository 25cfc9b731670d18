/**
 * The WhatsApp link of a lead (spec §3 message template `prospecto`): the corporate's template
 * with `{nombre}`, `{asesor}`, `{corporativo}` and `{desarrollo}` filled in, opened as
 * `https://wa.me/<number>?text=<encoded>`. A link only: nothing is sent by the server.
 *
 * wa.me reads the number as international, so a national one (`33 1111 2222`) needs the country
 * code first, else WhatsApp dials another country (+33 is France): see core
 * `internationalPhoneDigits`; the country comes from the corporate's time zone.
 */

import { internationalPhoneDigits, type PhoneCountry } from '../../../../core/lead';

export interface WhatsAppInput {
  /** The corporate's `plantillaMensaje.prospecto`; a missing template gives a link without text. */
  template: string | null | undefined;
  /** The lead's mobile, else its phone, as written. */
  phone: string | null | undefined;
  /** Where national numbers belong (core `phoneCountryForTimeZone` of the corporate). */
  country: PhoneCountry;
  nombre: string;
  asesor: string;
  corporativo: string;
  desarrollo: string;
}

/** The filled-in message: every placeholder replaced (unknown ones kept as written). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? (values[name] ?? '') : whole,
  );
}

/** The wa.me link, or null when the lead has no phone WhatsApp could dial. */
export function whatsappLink(input: WhatsAppInput): string | null {
  const digits = internationalPhoneDigits(input.phone ?? '', input.country);
  if (digits === null) return null;
  const text = input.template
    ? fillTemplate(input.template, {
        nombre: input.nombre,
        asesor: input.asesor,
        corporativo: input.corporativo,
        desarrollo: input.desarrollo,
      })
        .replace(/\s+/g, ' ')
        .trim()
    : '';
  return text
    ? `https://wa.me/${digits}?text=${encodeURIComponent(text)}`
    : `https://wa.me/${digits}`;
}
