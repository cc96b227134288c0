// The header of spec 2.6, shown only where enabled (standalone, not inside the hub's frame or the
// extension): the static pages' header (SiteHeader.astro's look), one row on every width (at most
// 64 px on a phone, so the total stays in the first screen). Signed in, an account menu under the
// person's name or e-mail: Your account (the spec's Homepage: /cart/home), Plans, Invite, New
// Password and Sign out (the spec's Logout); signed out, Pricing, a Sign up menu for the personal,
// business and education tiers, and Log in. The menus are <details> elements drawn by CSS
// (cart.css), not React state: the JavaScript before the payment step has no room to spare. A
// route change mounts the header anew (CheckoutApp's key), which closes an open menu.
import { LOGOUT_PATH } from "../../contract/constants.ts";
import { hrefFor } from "../../domain/checkout/screens.ts";

type Props = { isAuth: boolean; userName: string };

export function Header({ isAuth, userName }: Props) {
  return (
    <header className="site-header">
      <div className="bar">
        <a className="logo" href="/" aria-label="Video Editor home">
          <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
            <rect width="28" height="28" rx="7" fill="#4c2bd1" />
            <path d="M11 8.5v11l9-5.5z" fill="#fff" />
          </svg>
          <span className="brand">Video Editor</span>
        </a>
        {isAuth ? (
          <details className="menu">
            <summary>
              <span className="vh">Account menu: </span>
              {userName || "Your account"}
            </summary>
            <nav aria-label="Account">
              <ul>
                <li>
                  <a href={hrefFor("home")}>Your account</a>
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
                  <a href={LOGOUT_PATH}>Sign out</a>
                </li>
              </ul>
            </nav>
          </details>
        ) : (
          <nav aria-label="Sign up" className="guest-nav">
            <a href="/pricing">Pricing</a>
            <details className="menu">
              <summary>Sign up</summary>
              <ul>
                <li>
                  <a href={hrefFor("sign-up", { tier: "personal" })}>Personal</a>
                </li>
                <li>
                  <a href={hrefFor("sign-up", { tier: "business" })}>Business</a>
                </li>
                <li>
                  <a href={hrefFor("sign-up", { tier: "education" })}>Education</a>
                </li>
              </ul>
            </details>
            <a href={hrefFor("login")}>Log in</a>
          </nav>
        )}
      </div>
    </header>
  );
}
