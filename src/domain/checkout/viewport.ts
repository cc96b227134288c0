// Responsive flags (spec 2.6 and 9): breakpoints at 768 and 1024 CSS pixels. Below 768 is mobile,
// from 768 up to 1024 is tablet, from 1024 up is desktop; the flags never both hold, so a screen
// picks one layout.

const BREAKPOINTS = { tablet: 768, desktop: 1024 } as const;

/** The same bands as media queries, for matchMedia and CSS, so JS and CSS agree at the edges. */
export const MEDIA_QUERIES = {
  mobile: `(max-width: ${BREAKPOINTS.tablet - 0.02}px)`,
  tablet: `(min-width: ${BREAKPOINTS.tablet}px) and (max-width: ${BREAKPOINTS.desktop - 0.02}px)`,
} as const;

export type ViewportFlags = { isMobile: boolean; isTablet: boolean };

/** The flags for a viewport width in CSS pixels; an unknown width (NaN) counts as desktop. */
export function viewportFlags(width: number): ViewportFlags {
  if (Number.isNaN(width)) return { isMobile: false, isTablet: false };
  return {
    isMobile: width < BREAKPOINTS.tablet,
    isTablet: width >= BREAKPOINTS.tablet && width < BREAKPOINTS.desktop,
  };
}
