/**
 * The choices of a lead's channel (`medioContacto`): the corporate's channels, then the campaigns
 * (spec §3 `campanias`) of the lead's development of interest, shown apart as campaigns. A
 * stored value that is in neither list (a campaign since renamed or removed, or one of another
 * development) is kept among the campaigns — the public capture is the only way a value outside
 * the corporate's channels gets stored (core `campaignFor`) — so the select shows it and saving
 * other fields does not clear it.
 */

export interface ChannelChoices {
  channels: string[];
  campaigns: string[];
}

export function channelChoices({
  channels,
  campaigns,
  current,
}: {
  /** The corporate's `mediosContacto`. */
  channels: readonly string[];
  /** The `campanias` of the lead's development of interest (none when it has no development). */
  campaigns: readonly string[] | null | undefined;
  /** The channel in the form (the stored one until the user changes it). */
  current: string | null | undefined;
}): ChannelChoices {
  const own = new Set(channels);
  const out = [...new Set(campaigns ?? [])].filter((c) => !own.has(c));
  if (current && !own.has(current) && !out.includes(current)) out.push(current);
  return { channels: [...channels], campaigns: out };
}
