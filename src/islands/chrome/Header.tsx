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

const links = (list: string[][]) =>
  list.map(([href, label]) => (
    <li key={label}>
      <a href={href}>{label}</a>
    </li>
  ));

export function Header({ isAuth, userName }: Props) {
  return (
    <header className="site-header">
      <div className="bar">
        <a className="logo" href="/" aria-label="Video Editor home">
          <span className="plan-mark" aria-hidden="true" />
          <span className="brand">Video Editor</span>
        </a>
        {isAuth ? (
          <details className="menu">
            <summary>{userName}</summary>
            <nav aria-label="Account">
              <ul>
                {links([
                  [hrefFor("home"), "Your account"],
                  [hrefFor("plans"), "Plans"],
                  [hrefFor("invite"), "Invite"],
                  [hrefFor("forgot-password"), "New Password"],
                  [LOGOUT_PATH, "Sign out"],
                ])}
              </ul>
            </nav>
          </details>
        ) : (
          <nav aria-label="Sign up">
            <a href="/pricing">Pricing</a>
            <details className="menu">
              <summary>Sign up</summary>
              <ul>
                {links([
                  [hrefFor("sign-up", { tier: "personal" }), "Personal"],
                  [hrefFor("sign-up", { tier: "business" }), "Business"],
                  [hrefFor("sign-up", { tier: "education" }), "Education"],
                ])}
              </ul>
            </details>
            <a href={hrefFor("login")}>Log in</a>
          </nav>
        )}
      </div>
    </header>
  );
}
