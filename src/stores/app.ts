// The app store of spec 3.1 and 3.8 and the start-up of spec section 4: nothing is shown until
// start-up completes. Session status says whether the visitor is signed in and sets the GDPR and
// US flags; a signed-in visitor's user, location, product info, context (then the licence and the
// teacher-email check where they apply) load in parallel; a user call without success means not
// authenticated; any failure raises init-failure and the app is still marked loaded.
import { map } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import { teacherCheckNeeded } from "../domain/account/email-rules.ts";
import { parseCheckoutQuery } from "../domain/checkout/query.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";
import { loadProducts } from "./products.ts";
import {
  $user,
  ANONYMOUS,
  loadContext,
  loadInstanceProperty,
  loadLicense,
  loadLocation,
  loadUser,
  verifyTeacherEmail,
} from "./user.ts";

export type AppState = {
  /** Start-up finished (with or without a failure): the screens may render. */
  loaded: boolean;
  /** Start-up failed somewhere; what loaded is shown, with a way to retry. */
  initFailure: ApiFailure | null;
  isGdprRegion: boolean;
  isClientUs: boolean;
  deploymentEnv: string;
  /** Hub pages allowed to embed the checkout (session status); messages go only to them. */
  hubOrigins: string[];
};

export const $app = map<AppState>({
  loaded: false,
  initFailure: null,
  isGdprRegion: true,
  isClientUs: false,
  deploymentEnv: "local",
  hubOrigins: [],
});

export type StartInput = {
  /** The page's query string, sent to session status with the initial referrer (spec 7). */
  search: string;
  referrer: string;
};

function sessionQuery(input: StartInput): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(input.search)) query[key] = value.slice(0, 500);
  query.initialReferrer = input.referrer.slice(0, 500);
  return query;
}

async function startUp(input: StartInput) {
  const session = await api().call(endpoints.sessionStatus, { query: sessionQuery(input) });
  if (!session.ok) return session;
  const { eu, countryCode, isAuth, deploymentEnv, hubOrigins } = session.value;
  $app.set({
    ...$app.get(),
    isGdprRegion: eu,
    isClientUs: countryCode === "US",
    deploymentEnv,
    hubOrigins,
  });
  $user.set({
    ...$user.get(),
    isGdprRegion: eu,
    isClientUs: countryCode === "US",
  });
  if (!isAuth) return session;

  const [user, ...rest] = await Promise.all([
    loadUser.run(),
    loadLocation(),
    loadProducts.run(),
    loadContext.run(),
  ]);
  if (!user.ok) {
    // A user call without success: the visitor is treated as not authenticated.
    $user.set({ ...ANONYMOUS, isGdprRegion: eu, isClientUs: countryCode === "US" });
    return user.error.status === 401 ? session : user;
  }
  const failed = rest.find((r) => !r.ok);
  if (failed) return failed;
  const u = $user.get();
  const follow: Promise<{ ok: boolean }>[] = [];
  // Enterprise owners and members fetch the licence and seats (spec 6).
  if (u.isUserEnterpriseMember || u.isEnterpriseAdmin) {
    follow.push(loadLicense());
    if (u.enterpriseMemberInstance) follow.push(loadInstanceProperty(u.enterpriseMemberInstance));
  }
  // A teacher plan, a trial with activation required, the URL, or a teacher purchase or
  // education trial in the URL asks for the teacher check (domain/account/email-rules.ts).
  if (teacherCheckNeeded({ ...u, query: parseCheckoutQuery(input.search) })) {
    follow.push(verifyTeacherEmail.run());
  }
  const more = await Promise.all(follow);
  const late = more.find((r) => !r.ok) as { ok: false; error: ApiFailure } | undefined;
  return late ?? session;
}

export const initApp = operation("initApp", (input: StartInput) => startUp(input), {
  onSuccess() {
    $app.set({ ...$app.get(), loaded: true, initFailure: null });
  },
  onFailure(error) {
    $app.set({ ...$app.get(), loaded: true, initFailure: error });
  },
});
