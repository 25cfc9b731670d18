import { describe, expect, it } from 'vitest';
import { channelChoices } from '../../src/ui/features/leads/utils/channel-options';

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
