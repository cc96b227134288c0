// Every asynchronous operation of spec section 4 goes started, then success or failure. An
// operation is one atom holding that state plus the action that runs it; the notable effects of
// section 4 hang on its hooks, so islands only render the state and call the action.
import { atom, type ReadableAtom } from "nanostores";
import type { ApiFailure, ApiResult } from "../client/client.ts";

export type OperationState<T> =
  | { status: "idle" }
  | { status: "started" }
  | { status: "success"; value: T }
  | { status: "failure"; error: ApiFailure };

export type Operation<A extends unknown[], T> = {
  readonly name: OperationName;
  readonly $state: ReadableAtom<OperationState<T>>;
  run(...args: A): Promise<ApiResult<T>>;
  /** Back to idle (for example, address-form success "can be cleared explicitly"). */
  reset(): void;
};

/** The operations of spec section 4, by name. */
const OPERATION_NAMES = [
  "verifyEmailCode",
  "generateCode",
  "convertToFree",
  "cancelTrial",
  "verifyCoupon",
  "applyCoupon",
  "removeCoupon",
  "leaveInstance",
  "paymentToken",
  "payment",
  "paypalPayment",
  "freeTrial",
  "cancelEssentials",
  "cancelSubscription",
  "invoice",
  "orderSummary",
  "addressForm",
  "products",
  "user",
  "context",
  "options",
  "activateAccount",
  "editUser",
  "deleteMembers",
  "verifyTeacherEmail",
  "inviteInfo",
  "useInviteCode",
  "initApp",
  // Issue 23: the buyer's business details and the account's invoices.
  "billingDetails",
  "invoiceDocuments",
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

/** Effects of spec section 4; each gets the run's arguments as one tuple. */
export type OperationHooks<A extends unknown[], T> = {
  onStart?: (args: A) => void;
  onSuccess?: (value: T, args: A) => void;
  onFailure?: (error: ApiFailure, args: A) => void;
};

/**
 * An operation. A run started while another is running supersedes it: only the latest run's
 * result reaches the state (an older answer arriving late must not overwrite a newer one).
 */
export function operation<A extends unknown[], T>(
  name: OperationName,
  work: (...args: A) => Promise<ApiResult<T>>,
  // The hooks' parameters are not where the types come from: `work` decides them.
  hooks: OperationHooks<NoInfer<A>, NoInfer<T>> = {},
): Operation<A, T> {
  const $state = atom<OperationState<T>>({ status: "idle" });
  let latest = 0;
  return {
    name,
    $state,
    async run(...args) {
      const id = ++latest;
      $state.set({ status: "started" });
      hooks.onStart?.(args);
      const result = await work(...args);
      if (id !== latest) return result;
      if (result.ok) {
        $state.set({ status: "success", value: result.value });
        hooks.onSuccess?.(result.value, args);
      } else {
        $state.set({ status: "failure", error: result.error });
        hooks.onFailure?.(result.error, args);
      }
      return result;
    },
    reset() {
      latest++;
      $state.set({ status: "idle" });
    },
  };
}

/** True while the operation runs: islands show a loader and disable the control. */
export function isBusy(state: OperationState<unknown>): boolean {
  return state.status === "started";
}
