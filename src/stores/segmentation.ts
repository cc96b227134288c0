// segmentationInfo (spec 3.1): what the visitor told the segmentation steps (what for, role, about
// them), kept locally as JSON across reloads, and saved to the account when signed in.
import { persistentAtom } from "@nanostores/persistent";

export type SegmentationInfo = {
  segment?: string;
  purpose?: string;
  role?: string;
  about?: string;
};

function decode(text: string): SegmentationInfo {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
    const out: SegmentationInfo = {};
    for (const key of ["segment", "purpose", "role", "about"] as const) {
      const field = (value as Record<string, unknown>)[key];
      if (typeof field === "string") out[key] = field.slice(0, 200);
    }
    return out;
  } catch {
    // A corrupt value (another tab, an old version) starts over instead of breaking the app.
    return {};
  }
}

export const $segmentationInfo = persistentAtom<SegmentationInfo>(
  "segmentationInfo",
  {},
  { encode: JSON.stringify, decode },
);

export function saveSegmentation(fields: SegmentationInfo): void {
  $segmentationInfo.set({ ...$segmentationInfo.get(), ...fields });
}
