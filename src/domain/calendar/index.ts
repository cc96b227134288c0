// Calendar arithmetic in UTC (no clock: instants come in as parameters).
export * from "./months.ts";
