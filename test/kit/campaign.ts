import type { CampaignResult } from "../../src/harness/campaign.js";

/** A campaign result without what the clock decides (wall times and rates), for comparing campaigns. */
export function timeless(r: CampaignResult) {
  const { wallMs: _w, runsPerS: _r, ...rest } = r;
  return {
    ...rest,
    properties: r.properties.map(({ wallMs: _pw, runsPerS: _pr, ...p }) => ({
      ...p,
      units: p.units.map(({ wallMs: _uw, ...u }) => ({ ...u, unit: { ...u.unit, property: u.unit.property.name } })),
    })),
  };
}
