// The header of spec 2.6, shown only where enabled (standalone, not inside the hub's frame or the
// extension): signed in, Homepage, Plans, Invite, New Password and Logout with the user's name;
// signed out, Pricing, sign-up links for the personal, business and education tiers, and login.
// Homepage and "Your account" lead to the account (/cart/home) from every screen, and New Password
// to the request for a reset link (issue 22).
import { LOGOUT_PATH } from "../../contract/constants.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";

type Props = { isAuth: boolean; userName: string };

export function Header({ isAuth, userName }: Props) {
  return (
    <header className="site-header">
      <div className="bar">
        <a className="logo" href="/">
          Video Editor
        </a>
        {isAuth ? (
          <nav aria-label="Account">
            <ul className="main-nav">
              <li>
                <a href={hrefFor("home")}>Homepage</a>
              </li>
              <li>
                <a href={hrefFor("plans")}>Plans</a>
              </li>
              <li>
                <a href={hrefFor("invite")}>Invite</a>
              </li>
              <li>
                <a href={hrefFor("forgot-password")}>New Password</a>
              </li>
              <li>
                <a href={LOGOUT_PATH}>Logout</a>
              </li>
            </ul>
            <p className="user-name">
              <a href={hrefFor("home")}>Your account</a>
              {userName ? `: ${userName}` : ""}
            </p>
          </nav>
        ) : (
          <nav aria-label="Sign up">
            <ul className="main-nav">
              <li>
                <a href="/pricing">Pricing</a>
              </li>
              <li>
                <a href={hrefFor("sign-up", { tier: "personal" })}>Personal</a>
              </li>
              <li>
                <a href={hrefFor("sign-up", { tier: "business" })}>Business</a>
              </li>
              <li>
                <a href={hrefFor("sign-up", { tier: "education" })}>Education</a>
              </li>
              <li>
                <a href={hrefFor("login")}>Log in</a>
              </li>
            </ul>
          </nav>
        )}
      </div>
    </header>
  );
}
