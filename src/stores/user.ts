// The user store of spec 3.1 and 3.8: who is signed in and what their account allows, from the
// user info, context, location and licence calls; and the account operations of section 4 that
// belong to the user at start-up (teacher e-mail check, activation). The account changes (edit
// details, invites, leave, disband, cancel trial, attributes) are account-operations.ts, loaded
// with the screens that use them and not at start-up.
import { map } from "nanostores";
import type { ApiResult } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { UserInfo } from "../contract/user.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";

/** The session fields of spec 3.1 the app reads (defaults as the spec gives them). */
export type UserState = {
  isAuth: boolean;
  userId: number | null;
  userName: string;
  firstName: string;
  lastName: string;
  userEmail: string;
  emailVerified: boolean;
  activationRequired: boolean;
  isGdprRegion: boolean;
  isClientUs: boolean;
  isUserEnterpriseMember: boolean;
  isEnterpriseAdmin: boolean;
  enterpriseRole: string | null;
  instanceId: number | null;
  /** The team workspace's name (enterpriseMemberInstance), for the instance property call. */
  enterpriseMemberInstance: string | null;
  isTrial: boolean;
  isExpiredTrial: boolean;
  isExpiredAccount: boolean;
  remainingTrialDays: number | null;
  productCode: string;
  orderState: string;
  orderEndDate: number | null;
  disableAccountUpgrades: boolean;
  upgradesDisabled: boolean;
  itunesSubscription: boolean;
  androidSubscription: boolean;
  isManagedAccount: boolean;
  isPurchaseOrder: boolean;
  userHasPaymentMethodSet: boolean;
  domainStatus: string | null;
  privacyUsageAnalytics: boolean;
  userCountryCode: string;
  userStateCode: string | null;
  currentSeats: number;
  usedSeats: number;
  maxSeats: number;
  hasLicense: boolean;
  invalidTeacherEmail: boolean;
  teacherEmailWasValidated: boolean;
  deploymentEnv: string;
  activeTests: { name: string; value: string }[];
  /** False when single sign-on manages the address and username (spec 6). */
  canEditCredentials: boolean;
  /** The school district the e-mail is on (none or one), for the redirect of spec 2.5. */
  schoolDistricts: UserInfo["schoolDistricts"];
};

export const ANONYMOUS: UserState = {
  isAuth: false,
  userId: null,
  userName: "",
  firstName: "",
  lastName: "",
  userEmail: "",
  emailVerified: false,
  activationRequired: false,
  isGdprRegion: true,
  isClientUs: false,
  isUserEnterpriseMember: false,
  isEnterpriseAdmin: false,
  enterpriseRole: null,
  instanceId: null,
  enterpriseMemberInstance: null,
  isTrial: false,
  isExpiredTrial: false,
  isExpiredAccount: false,
  remainingTrialDays: null,
  productCode: "wv_free",
  orderState: "unknown",
  orderEndDate: null,
  disableAccountUpgrades: false,
  upgradesDisabled: false,
  itunesSubscription: false,
  androidSubscription: false,
  isManagedAccount: false,
  isPurchaseOrder: false,
  userHasPaymentMethodSet: false,
  domainStatus: null,
  privacyUsageAnalytics: false,
  userCountryCode: "",
  userStateCode: null,
  currentSeats: 0,
  usedSeats: 0,
  maxSeats: 0,
  hasLicense: false,
  invalidTeacherEmail: false,
  teacherEmailWasValidated: false,
  deploymentEnv: "local",
  activeTests: [],
  canEditCredentials: true,
  schoolDistricts: [],
};

export const $user = map<UserState>({ ...ANONYMOUS });

/** Merges what a call said about the user; the server's answer replaces what was there. */
function patch(fields: Partial<UserState>): void {
  $user.set({ ...$user.get(), ...fields });
}

/** The user call; an answer without success (signed out) is a failure: not authenticated. */
async function fetchUser(): Promise<ApiResult<UserInfo>> {
  const result = await api().call(endpoints.userInfo);
  if (!result.ok) return result;
  if (result.value.success) return { ok: true, value: result.value, status: result.status };
  const { message } = result.value;
  return { ok: false, error: { kind: "http", message, status: result.status } };
}

export const loadUser = operation("user", fetchUser, {
  onSuccess(info) {
    const usage = info.privacyPreferences.find((p) => p.key === "usage_analytics_web");
    patch({
      isAuth: true,
      userId: info.userId,
      userName: info.username,
      firstName: info.firstName,
      lastName: info.lastName,
      userEmail: info.email,
      emailVerified: info.emailVerified,
      activationRequired: info.activationRequired,
      isUserEnterpriseMember: info.enterpriseMember,
      isEnterpriseAdmin: info.enterpriseAccountOwner,
      enterpriseRole: info.enterpriseRole,
      instanceId: info.instanceId,
      enterpriseMemberInstance: info.enterpriseMemberInstance,
      domainStatus: info.domainStatus,
      privacyUsageAnalytics: usage ? usage.value : false,
      deploymentEnv: info.deploymentEnv,
      canEditCredentials: info.canEditCredentials,
      schoolDistricts: info.schoolDistricts,
    });
  },
});

export const loadContext = operation("context", () => api().call(endpoints.userContext), {
  onSuccess(context) {
    patch({
      productCode: context.productCode,
      orderState: context.orderState,
      orderEndDate: context.orderEndDate,
      isTrial: context.isTrial,
      isExpiredTrial: context.isExpiredTrial,
      isExpiredAccount: context.isExpiredAccount,
      remainingTrialDays: context.remainingTrialDays,
      disableAccountUpgrades: context.disableAccountUpgrades,
      upgradesDisabled: context.upgradesDisabled,
      itunesSubscription: context.itunesSubscription,
      androidSubscription: context.androidSubscription,
      isManagedAccount: context.isManagedAccount,
      isPurchaseOrder: context.isPurchaseOrder,
      userHasPaymentMethodSet: context.userHasPaymentMethodSet,
      isUserEnterpriseMember: context.isUserEnterpriseMember,
      isEnterpriseAdmin: context.isEnterpriseAdmin,
      currentSeats: context.currentSeats,
      usedSeats: context.usedSeats,
      maxSeats: context.maxSeats,
      activeTests: context.activeTests.map((t) => ({ name: t.name, value: t.data.value })),
    });
  },
});

/** Location: not one of section 4's named operations, so a plain call that fills the flags. */
export async function loadLocation() {
  const result = await api().call(endpoints.location);
  if (result.ok) {
    patch({ userCountryCode: result.value.countryCode, userStateCode: result.value.stateCode });
  }
  return result;
}

/** The licence and seats, for enterprise owners and members (spec 6). */
export async function loadLicense() {
  const result = await api().call(endpoints.enterpriseLicense);
  if (result.ok) {
    patch({
      hasLicense: result.value.hasLicense,
      currentSeats: result.value.currentSeats,
      usedSeats: result.value.usedSeats,
      maxSeats: result.value.maxSeats,
    });
  }
  return result;
}

/** The instance property of a team member's workspace (spec 4's start-up; spec 7's movieAPI). */
export async function loadInstanceProperty(instanceName: string) {
  return api().call(endpoints.instanceInfo, {
    query: { method: "getInstanceInfo", instanceName },
  });
}

/** Teacher e-mail check: success false means invalid (spec 5); sets the flags of section 4. */
export const verifyTeacherEmail = operation(
  "verifyTeacherEmail",
  () => api().call(endpoints.validateTeacher, { body: {} }),
  {
    onSuccess(answer) {
      patch({ invalidTeacherEmail: !answer.success, teacherEmailWasValidated: true });
    },
  },
);

export const activateAccount = operation(
  "activateAccount",
  () => api().call(endpoints.activateUser, { body: {} }),
  {
    onSuccess() {
      patch({ activationRequired: false });
    },
  },
);
