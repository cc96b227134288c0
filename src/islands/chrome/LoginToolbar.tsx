// The login toolbar of spec 2.6: a logo button to the site root, and a Sign Up link only in some
// modes: to the plans page's sign-up tab for a visitor on a sign-in screen, to the sign-up page
// with origin=rce in the extension, or to the plain sign-up page.
import { hrefFor } from "../../domain/checkout/screens.ts";

export type SignUpMode = "none" | "plans" | "extension" | "plain";

function signUpHref(mode: SignUpMode): string | null {
  switch (mode) {
    case "none":
      return null;
    case "plans":
      return hrefFor("plans", { tab: "signup" });
    case "extension":
      return hrefFor("sign-up", { origin: "rce" });
    case "plain":
      return hrefFor("sign-up");
  }
}

export function LoginToolbar({ mode }: { mode: SignUpMode }) {
  const href = signUpHref(mode);
  return (
    // A landmark of its own (banner), so nothing of the page sits outside one (axe "region").
    <header className="login-toolbar bar">
      <a className="logo" href="/" aria-label="Video Editor home">
        Video Editor
      </a>
      {href && (
        <a className="btn" href={href}>
          Sign Up
        </a>
      )}
    </header>
  );
}
