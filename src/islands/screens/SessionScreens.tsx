// Sign in (auth, login) and sign up (signup, sign-up). Each field has a visible label and the
// autocomplete the browser needs; a failure keeps what was typed and says what to do.

import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect, useState } from "react";
import { resolveTier } from "../../domain/account/tier.ts";
import type { CheckoutQuery } from "../../domain/checkout/query.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { planNameForPurpose, signUpPurpose } from "../../domain/checkout/sign-up-purpose.ts";
import { $options, loadOptions } from "../../stores/products.ts";
import { $query } from "../../stores/router.ts";
import { $sessionForm, signIn, signUp } from "../../stores/session.ts";
import {
  checkFields,
  type FieldErrors,
  FieldProblem,
  focusFirstProblem,
  problemProps,
  serverFieldErrors,
} from "../forms/field-errors.tsx";
import { Frame, Problem } from "./Frame.tsx";

/** What the other form's link carries: the chosen product and the page to come back to. */
function carried(query: CheckoutQuery) {
  return { p: query.p, product: query.productCode, tier: query.tier, redirect: query.redirect };
}

function field(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value : "";
}

export function SignInScreen({ title }: { title: string }) {
  const state = useStore($sessionForm);
  const query = useStore($query);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    void signIn(field(form, "email"), field(form, "password"));
  };
  return (
    <Frame title={title}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <label htmlFor="signin-email">E-mail</label>
        <input id="signin-email" name="email" type="email" autoComplete="email" required />
        <label htmlFor="signin-password">Password</label>
        <input
          id="signin-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
        {state.error && (
          <Problem failure={state.error}>
            {state.error.code === "invalid_credentials" && (
              <p>
                <a href={hrefFor("forgot-password")}>Reset your password</a>
              </p>
            )}
          </Problem>
        )}
        <button type="submit" className="btn" disabled={state.busy}>
          {state.busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p>
        <a href={hrefFor("forgot-password")}>Forgot password?</a>
      </p>
      <p>
        New here? <a href={hrefFor("sign-up", carried(query))}>Create an account</a>
      </p>
    </Frame>
  );
}

/**
 * What the account is for, when the visitor came from a trial or a purchase (issue 34): the plan's
 * name from the tier's plan options, the ones the plans screen shows.
 */
function SignUpPurpose({ query }: { query: CheckoutQuery }) {
  const options = useStore($options);
  const wanted = query.p === "trial" || query.p === "buy";
  useEffect(() => {
    if (wanted) void loadOptions.run({ tier: resolveTier(query) });
  }, [wanted, query]);
  if (!wanted) return null;
  const code = query.productCode;
  const plan =
    options?.products.find((p) => p.code === code) ??
    (options?.trialProduct && (query.p === "trial" || options.trialProduct.code === code)
      ? options.trialProduct
      : undefined);
  const text = signUpPurpose(query.p, plan ? planNameForPurpose(plan.name) : null);
  // Its line is there from the first paint (the name fills in), so the form does not move.
  return <p className="lead">{text ?? "\u00a0"}</p>;
}

export function SignUpScreen({ title }: { title: string }) {
  const state = useStore($sessionForm);
  const query = useStore($query);
  const [errors, setErrors] = useState<FieldErrors>({});
  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    // What the browser can check is said before anything is sent.
    const found = checkFields(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstProblem(form, found);
      return;
    }
    await signUp({
      email: field(form, "email"),
      password: field(form, "password"),
      firstName: field(form, "firstName"),
      lastName: field(form, "lastName"),
    });
    const answered = serverFieldErrors($sessionForm.get().error);
    setErrors(answered);
    focusFirstProblem(form, answered);
  };
  const fieldsSaid = Object.keys(errors).length > 0;
  return (
    <Frame title={title}>
      <SignUpPurpose query={query} />
      <form className="stack" onSubmit={onSubmit} noValidate>
        <label htmlFor="signup-first">First name</label>
        <input
          id="signup-first"
          name="firstName"
          autoComplete="given-name"
          required
          {...problemProps(errors, "firstName", "signup-first")}
        />
        <FieldProblem errors={errors} name="firstName" id="signup-first" />
        <label htmlFor="signup-last">Last name</label>
        <input
          id="signup-last"
          name="lastName"
          autoComplete="family-name"
          {...problemProps(errors, "lastName", "signup-last")}
        />
        <FieldProblem errors={errors} name="lastName" id="signup-last" />
        <label htmlFor="signup-email">E-mail</label>
        <input
          id="signup-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          {...problemProps(errors, "email", "signup-email")}
        />
        <FieldProblem errors={errors} name="email" id="signup-email" />
        <label htmlFor="signup-password">Password</label>
        <input
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={6}
          maxLength={50}
          required
          {...problemProps(errors, "password", "signup-password")}
        />
        <FieldProblem errors={errors} name="password" id="signup-password" />
        {state.error && !fieldsSaid && <Problem failure={state.error} />}
        <button type="submit" className="btn" disabled={state.busy}>
          {state.busy ? "Creating your account…" : "Sign up for free"}
        </button>
      </form>
      <p>
        Have an account? <a href={hrefFor("login", carried(query))}>Sign in</a>
      </p>
    </Frame>
  );
}
