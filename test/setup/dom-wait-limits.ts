// Testing Library's waits (findBy…, waitFor) give up after 1 s by default: a hang guard far
// shorter than the test's own limit, and what a slow or shared machine ran out of (a PayPal SDK
// script the component adds after two fetches, at load 28). Waits end as soon as their condition
// holds, so a longer guard costs only a failing test's time: 5 s times the run's load factor, as
// the tests' own limits (vitest.config.ts, scripts/time-limit-scale.ts).
import { configure } from "@testing-library/dom";
import { timeLimitScale } from "../../scripts/time-limit-scale.ts";

configure({ asyncUtilTimeout: 5_000 * timeLimitScale("UNIT_TIMEOUT_SCALE") });
