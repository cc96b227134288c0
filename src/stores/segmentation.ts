// segmentationInfo (spec 3.1): what the visitor told the segmentation steps (what for, role, about
// them), kept locally as JSON across reloads, and saved to the account when signed in as the user
// attribute segmentationInfo (POST /api/2/wevideouser/attribute; a failure is only logged, spec
// 8, so the steps never stop on it). Loaded with the segmentation screens only.
import { persistentAtom } from "@nanostores/persistent";
import { atom } from "nanostores";
import { setAttribute } from "./account-operations.ts";
import { $user } from "./user.ts";

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

function saveSegmentation(fields: SegmentationInfo): void {
  $segmentationInfo.set({ ...$segmentationInfo.get(), ...fields });
}

/** The segment a purpose puts the person in (the plans' categories, spec 6). */
const SEGMENT_OF_PURPOSE: Record<string, string> = {
  Work: "business",
  School: "education",
  Personal: "personal",
};

/** True while a step's answer is being saved to the account. */
export const $segmentationSaving = atom(false);

/**
 * Keeps one step's answer: locally at once, then on the account when signed in (the whole JSON
 * as segmentationInfo, and the purpose as the purpose attribute the account already knows).
 */
export async function saveSegmentationStep(
  field: "purpose" | "role" | "about",
  value: string,
): Promise<void> {
  const segment = field === "purpose" ? SEGMENT_OF_PURPOSE[value] : undefined;
  saveSegmentation(segment ? { [field]: value, segment } : { [field]: value });
  if (!$user.get().isAuth) return;
  $segmentationSaving.set(true);
  try {
    const saves = [setAttribute("segmentationInfo", JSON.stringify($segmentationInfo.get()))];
    if (field === "purpose") saves.push(setAttribute("purpose", value));
    await Promise.all(saves);
  } finally {
    $segmentationSaving.set(false);
  }
}
