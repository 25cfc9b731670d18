import { describe, expect, it } from 'vitest';
import { messageTemplateFor } from '../../src/core/development-settings';
import { channelChoices } from '../../src/ui/features/leads/utils/channel-options';
import { emailLink } from '../../src/ui/features/leads/utils/email';

describe('channelChoices: the lead editor’s channel list (spec §3 campanias)', () => {
  const channels = ['Showroom', 'Sitio web', 'Facebook'];

  it('offers the development’s campaigns apart from the corporate’s channels', () => {
    expect(
      channelChoices({
        channels,
        campaigns: ['Feria Inmobiliaria 2026', 'Facebook', 'Feria Inmobiliaria 2026'],
        current: 'Showroom',
      }),
    ).toEqual({ channels, campaigns: ['Feria Inmobiliaria 2026'] });
  });

  it('keeps a stored campaign that the development no longer lists', () => {
    expect(channelChoices({ channels, campaigns: [], current: 'Expo Vivienda 2025' })).toEqual({
      channels,
      campaigns: ['Expo Vivienda 2025'],
    });
    expect(channelChoices({ channels, campaigns: undefined, current: '' }).campaigns).toEqual([]);
  });
});

describe('emailLink: the prospecto template in a mailto (spec §3 message template)', () => {
  const values = {
    nombre: 'Lucía',
    asesor: 'Sofía Navarro',
    corporativo: 'Grupo Horizonte',
    desarrollo: 'Torre Alameda',
    subject: 'Información de Torre Alameda — Grupo Horizonte',
  };

  it('fills the development’s own template (else the corporate’s) into the body, with the subject', () => {
    const template = messageTemplateFor(
      {
        plantillaMensaje: {
          prospecto: 'Hola {nombre}, soy {asesor}.\n¿Visitas {desarrollo} & más?',
          developmentId: 'd1',
        },
      },
      'Plantilla del corporativo',
    );
    const link = emailLink({ ...values, template, email: 'lucia@example.com' });
    expect(link).toBe(
      `mailto:lucia@example.com?subject=${encodeURIComponent(values.subject)}&body=${encodeURIComponent('Hola Lucía, soy Sofía Navarro.\r\n¿Visitas Torre Alameda & más?')}`,
    );
    const url = new URL(link!);
    expect(url.searchParams.get('body')).toBe(
      'Hola Lucía, soy Sofía Navarro.\r\n¿Visitas Torre Alameda & más?',
    );
    expect(
      emailLink({
        ...values,
        template: messageTemplateFor(null, '{corporativo} saluda a {nombre} {desconocido}'),
        email: 'lucia@example.com',
      }),
    ).toBe(
      `mailto:lucia@example.com?subject=${encodeURIComponent(values.subject)}&body=${encodeURIComponent('Grupo Horizonte saluda a Lucía {desconocido}')}`,
    );
  });

  it('no valid address, no link; no template, the subject only', () => {
    expect(emailLink({ ...values, template: 'Hola', email: null })).toBeNull();
    expect(emailLink({ ...values, template: 'Hola', email: 'no es correo' })).toBeNull();
    expect(emailLink({ ...values, template: null, email: ' ana+obra@example.com ' })).toBe(
      `mailto:ana%2Bobra@example.com?subject=${encodeURIComponent(values.subject)}`,
    );
  });
});
