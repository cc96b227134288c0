// Coupons, invitations, instances and analytics (spec section 7).
import { z } from "zod";
import { QueryFlag, SuccessFlag, Timestamp } from "./common.ts";

export const VerifyCouponResponse = z.object({
  success: z.literal(true),
  coupon: z.string(),
  /** The team workspace the coupon joins, for instance coupons; null for campaign coupons. */
  instanceName: z.string().nullable(),
  campaign: z
    .object({
      id: z.string(),
      name: z.string(),
      products: z.array(z.string()),
      validTo: Timestamp,
      targeted: z.boolean(),
    })
    .nullable(),
});
export const RemoveCouponResponse = z.object({ success: z.literal(true) });

export const ApplyCouponResponse = z.object({
  success: z.literal(true),
  /** campaign_applied or joined_instance. */
  reason: z.string(),
  instanceName: z.string().nullable(),
});

export const InviteInfoResponse = z.object({
  code: z.string(),
  instanceName: z.string(),
  inviterName: z.string(),
  email: z.string().nullable(),
  productCode: z.string(),
  tier: z.string(),
  accepted: z.boolean(),
});
export const AcceptInviteQuery = z.object({ cancelSubscription: QueryFlag });
export const AcceptInviteResponse = SuccessFlag.extend({
  /**
   * Why the invitation was not accepted: one of INVITE_FAILURE_REASONS
   * (src/domain/account/invites.ts, each put in words there). A string, not an enum, so that a
   * backend with a reason this client does not know yet still answers within the contract; the
   * page then says so in general words.
   */
  failureReason: z.string().nullable(),
  instanceName: z.string().nullable(),
});

export const InstrumentationRequest = z.object({
  eventName: z.string().trim().min(1).max(200),
  properties: z.record(z.string(), z.unknown()).optional(),
});
export const HubspotQuery = z.object({ requiredEvent: QueryFlag });
export const HubspotRequest = z.record(z.string(), z.unknown()).optional();
/** Error reports from the browser (TrackJS format); stored as given, size-capped. */
export const TrackJsRequest = z.record(z.string(), z.unknown());
/** The experiments whose prices the page showed (at most 20 ids, as the catalogue spells them). */
export const ExperimentExposuresRequest = z
  .object({
    experiments: z
      .array(
        z
          .string()
          .regex(/^[a-z0-9-]{1,64}$/, "an experiment id: lower-case letters, digits and dashes"),
      )
      .min(1)
      .max(20),
  })
  .strict();
/** 204: nothing to say; the groups travel in the `vid` and `xp` cookies. */
export const ExperimentExposuresResponse = z.undefined();

export const LeaveInstanceResponse = z.object({
  success: z.literal(true),
  productCode: z.string(),
});

/**
 * POST /api/5/team/invite (issue 34): the owner's open invitation link to their team (the newest
 * open one, or a new one): anyone with it may join while a seat is free.
 */
export const TeamInviteResponse = z.object({ path: z.string().startsWith("/cart/invite/") });

/**
 * GET /api/5/team/members (issue 34): the people in the owner's team workspace, for the account
 * page's team card; the owner is among them (`owner`), with no Remove.
 */
export const TeamMembersResponse = z.object({
  members: z.array(
    z.object({
      id: z.number().int(),
      email: z.string(),
      name: z.string(),
      owner: z.boolean(),
    }),
  ),
  usedSeats: z.number().int(),
});

const MEMBER_ID = "the member must be given by their whole-number id";
/** The `:id` of DELETE /api/5/team/members/:id: a member's account id. */
export const TeamMemberParams = z.object({
  id: z.coerce
    .number({ error: MEMBER_ID })
    .int({ error: MEMBER_ID })
    .min(1, { error: MEMBER_ID })
    .max(Number.MAX_SAFE_INTEGER, { error: MEMBER_ID }),
});

/** DELETE /api/5/team/members/:id: the seats used once the member is out. */
export const RemoveTeamMemberResponse = z.object({
  success: z.literal(true),
  usedSeats: z.number().int(),
});
